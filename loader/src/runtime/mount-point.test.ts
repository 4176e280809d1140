import { afterEach, describe, expect, it, vi } from 'vitest';
import { BundleMount, THEME_SETTER_ERROR, waitForThemeSetter } from './mount-point';

afterEach(() => vi.useRealTimers());

describe('themeSetter handshake', () => {
  it("fails with 'Failed to load Renderer with themeSetter' when none arrives within 4000 ms", async () => {
    vi.useFakeTimers();
    let error: Error | null = null;
    const wait = waitForThemeSetter(() => null).catch((e: Error) => (error = e));
    await vi.advanceTimersByTimeAsync(3950);
    expect(error).toBeNull();
    await vi.advanceTimersByTimeAsync(100);
    await wait;
    expect(THEME_SETTER_ERROR).toBe('Failed to load Renderer with themeSetter');
    expect(error!.message).toBe(THEME_SETTER_ERROR);
  });

  it('polls every 50 ms and resolves as soon as the renderer hands its setter over', async () => {
    vi.useFakeTimers();
    const setter = () => {};
    let available: (() => void) | null = null;
    let polls = 0;
    const wait = waitForThemeSetter(() => (polls++, available));
    await vi.advanceTimersByTimeAsync(120);
    available = setter;
    await vi.advanceTimersByTimeAsync(50);
    await expect(wait).resolves.toBe(setter);
    expect(polls).toBe(4); // t=0, 50, 100, 150
  });
});

describe('BundleMount.update', () => {
  type Props = { options: { flags: Record<string, string> }; onClose?: () => void; domElement: HTMLElement; setThemeSetter(setter: () => void): void };
  /** A bundle's parcel as single-spa runs it; `withUpdate` false: a bundle without the update lifecycle. */
  function bundle(withUpdate: boolean) {
    const seen: Props[] = [];
    const parcel = {
      bootstrap: async () => undefined,
      mount: async (props: Props) => {
        seen.push(props);
        props.setThemeSetter(() => undefined);
      },
      unmount: async () => undefined,
      ...(withUpdate && { update: async (props: Props) => void seen.push(props) }),
    };
    const federation = { load: async () => ({ createParcel: () => parcel }) } as unknown as ConstructorParameters<typeof BundleMount>[2];
    const ctx = { metadata: {}, reportError: vi.fn() } as unknown as ConstructorParameters<typeof BundleMount>[3];
    return { seen, mount: new BundleMount('admin-portal', 'gatehouse-update-test', federation, ctx, false), ctx };
  }

  it('hands the changed props to the mounted bundle, keeping the rest (its element, onClose)', async () => {
    const { seen, mount } = bundle(true);
    const onClose = vi.fn();
    await mount.mount({ options: { flags: { beta: 'off' } }, onClose } as never);
    mount.update({ options: { flags: { beta: 'on' } } } as never);
    await vi.waitFor(() => expect(seen).toHaveLength(2));
    expect(seen[1]!.options.flags).toEqual({ beta: 'on' });
    expect(seen[1]!.onClose).toBe(onClose);
    expect(seen[1]!.domElement).toBe(seen[0]!.domElement);
    mount.unmount();
  });

  it('does nothing for a bundle that is not mounted or takes no updates', async () => {
    const idle = bundle(true);
    idle.mount.update({ options: { flags: { beta: 'on' } } } as never);
    expect(idle.seen).toHaveLength(0);
    const fixed = bundle(false);
    await fixed.mount.mount({ options: { flags: {} } } as never);
    expect(() => fixed.mount.update({ options: { flags: { beta: 'on' } } } as never)).not.toThrow();
    expect(fixed.seen).toHaveLength(1);
    expect(fixed.ctx.reportError).not.toHaveBeenCalled();
    fixed.mount.unmount();
  });
});
