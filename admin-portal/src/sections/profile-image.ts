/** Profile picture rules: what may be picked, and what may be uploaded (seed 001 section 5). */

/** Largest picture accepted, in bytes (1 MiB). */
export const MAX_PROFILE_IMAGE_BYTES = 1024 * 1024;

/** Image types the server accepts for a profile picture. */
export const PROFILE_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

/** Catalog keys of the picture's problems. */
export const IMAGE_TYPE_MESSAGE = 'profile.picture.wrongType';
export const IMAGE_SIZE_MESSAGE = 'profile.picture.tooLarge';

const IMAGE_DATA_URL = /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+={0,2}$/;

/** Why a picked file can't be used (a catalog key), or null when it can. Checked before anything is sent. */
export function profileImageProblem(file: { type: string; size: number }): string | null {
  if (!(PROFILE_IMAGE_TYPES as readonly string[]).includes(file.type)) return IMAGE_TYPE_MESSAGE;
  if (file.size > MAX_PROFILE_IMAGE_BYTES) return IMAGE_SIZE_MESSAGE;
  return null;
}

/** Upload only a base64 image data URL that differs from the current picture. */
export function isUploadableImage(dataUrl: string | null | undefined, current: string | null | undefined): dataUrl is string {
  return typeof dataUrl === 'string' && IMAGE_DATA_URL.test(dataUrl) && dataUrl !== current;
}
