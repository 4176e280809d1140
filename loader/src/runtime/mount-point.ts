/**
 * A bundle mounted as a single-spa parcel inside its custom element. The element owns a shadow
 * root by default (light DOM as an option). After mounting, the renderer must hand over a
 * themeSetter: polled every 50 ms for up to 4000 ms, else 'Failed to load Renderer with themeSetter'.
 */
import { mountRootParcel, type Parcel } from 'single-spa';
import { THEME_SETTER_POLL_MS, THEME_SETTER_TIMEOUT_MS, resolveTheme } from '@gatehouse/shared';
import type { MountProps, ResolvedTheme } from '@gatehouse/shared';
import type { BootContext } from '../types';
import type { createFederation } from './federation';
import { showPlaceholder } from './placeholder';

export const THEME_SETTER_ERROR = 'Failed to load Renderer with themeSetter';

class GatehouseElement extends HTMLElement {}

function defineElement(tag: string): void {
  // Another copy of the runtime (a second app) may have defined it already.
  if (!customElements.get(tag)) customElements.define(tag, class extends GatehouseElement {});
}

/** Polls `get` until it returns a value; rejects with THEME_SETTER_ERROR after the timeout. */
export function waitForThemeSetter<T>(get: () => T | null, pollMs = THEME_SETTER_POLL_MS, timeoutMs = THEME_SETTER_TIMEOUT_MS): Promise<T> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const tick = () => {
      const value = get();
      if (value) return resolve(value);
      if (Date.now() - started >= timeoutMs) return reject(new Error(THEME_SETTER_ERROR));
      setTimeout(tick, pollMs);
    };
    tick();
  });
}

export class BundleMount {
  private parcel: Parcel | null = null;
  private element: HTMLElement | null = null;
  private createdElement = false;
  private mounting: Promise<void> | null = null;
  private props: Record<string, unknown> = {};

  constructor(
    private readonly bundle: string,
    private readonly tag: string,
    private readonly federation: ReturnType<typeof createFederation>,
    private readonly ctx: BootContext,
    private readonly shadow: boolean,
    /** A bundle that opens on a click (the portal): the name of the frame shown while its code arrives. */
    private readonly placeholderLabel?: string,
  ) {}

  get mounted(): boolean {
    return this.parcel !== null;
  }

  /** Mounts the bundle (once; a second call while mounted is a no-op). */
  mount(props: Omit<MountProps, 'domElement' | 'setThemeSetter'>): Promise<void> {
    if (this.parcel) return Promise.resolve();
    this.mounting ??= this.doMount(props).finally(() => (this.mounting = null));
    return this.mounting;
  }

  /** Hands changed props (the caller's flags) to the mounted bundle, when it takes updates. */
  update(changes: Partial<Omit<MountProps, 'domElement' | 'setThemeSetter'>>): void {
    const parcel = this.parcel;
    if (!parcel?.update || parcel.getStatus() !== 'MOUNTED') return;
    this.props = { ...this.props, ...changes };
    parcel.update(this.props).catch((e) => this.ctx.reportError(this.bundle, e));
  }

  unmount(): void {
    const parcel = this.parcel;
    this.parcel = null;
    if (parcel && parcel.getStatus() === 'MOUNTED') void parcel.unmount().catch((e) => this.ctx.reportError(this.bundle, e));
    if (this.createdElement) this.element?.remove();
    else if (this.element?.shadowRoot) this.element.shadowRoot.replaceChildren();
    this.element = null;
  }

  private async doMount(props: Omit<MountProps, 'domElement' | 'setThemeSetter'>): Promise<void> {
    let removePlaceholder = () => {};
    try {
      defineElement(this.tag);
      let element = document.querySelector<HTMLElement>(this.tag);
      this.createdElement = !element;
      if (!element) {
        element = document.createElement(this.tag);
        document.body.appendChild(element);
      }
      this.element = element;
      const root: ShadowRoot | HTMLElement = this.shadow ? (element.shadowRoot ?? element.attachShadow({ mode: 'open' })) : element;
      // Shown at once; the bundle's own skeleton replaces it when it runs.
      if (this.placeholderLabel) removePlaceholder = showPlaceholder(root, this.placeholderLabel, resolveTheme(this.ctx.metadata, props.options.theme).mode);
      const factory = await this.federation.load(this.bundle);
      const container = document.createElement('div');
      container.className = 'gatehouse-root';
      root.appendChild(container);
      let themeSetter: ((theme: ResolvedTheme) => void) | null = null;
      this.props = {
        ...props,
        name: `${this.bundle}-${Date.now()}`,
        domElement: container,
        setThemeSetter: (setter: (theme: ResolvedTheme) => void) => (themeSetter = setter),
      };
      const parcel = mountRootParcel(factory.createParcel(), this.props as unknown as MountProps & { name: string });
      this.parcel = parcel;
      await parcel.mountPromise;
      removePlaceholder();
      const setter = await waitForThemeSetter(() => themeSetter);
      setter(resolveTheme(this.ctx.metadata));
    } catch (error) {
      removePlaceholder();
      this.ctx.reportError(this.bundle, error);
      this.showFailure(error);
      throw error;
    }
  }

  /** A visible, accessible message in place of a bundle that could not load. */
  private showFailure(error: unknown): void {
    defineElement(this.tag);
    let element = this.element ?? document.querySelector<HTMLElement>(this.tag);
    if (!element) {
      element = document.createElement(this.tag);
      document.body.appendChild(element);
      this.createdElement = true;
    }
    this.element = element;
    const box = document.createElement('p');
    box.setAttribute('role', 'alert');
    box.setAttribute('data-gatehouse-error', this.bundle);
    box.textContent = `Sign-in could not be loaded. Please reload the page. (${(error as Error)?.message ?? error})`;
    (element.shadowRoot ?? element).replaceChildren(box);
  }
}
