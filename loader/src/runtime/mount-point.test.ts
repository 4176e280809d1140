import { afterEach, describe, expect, it, vi } from 'vitest';
import { THEME_SETTER_ERROR, waitForThemeSetter } from './mount-point';

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
