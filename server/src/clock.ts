/** Source of "now" in epoch milliseconds; tests pass a fixed or movable one. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
