/**
 * Copies `text` to the clipboard: the async Clipboard API where the page may use it (secure context,
 * permission), else the selected text of `field` with the older copy command (plain-HTTP hosts,
 * embedded frames without clipboard-write). Resolves true when either worked.
 */
export async function copyText(text: string, field: HTMLInputElement | null): Promise<boolean> {
  try {
    if (typeof navigator !== 'undefined' && navigator.clipboard?.writeText) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Refused (no permission, not focused, insecure context): fall back to selecting the text.
  }
  if (!field) return false;
  field.focus();
  field.select();
  try {
    // Deprecated but still the only synchronous copy path where the Clipboard API is unavailable.
    return typeof document.execCommand === 'function' && document.execCommand('copy');
  } catch {
    return false;
  }
}
