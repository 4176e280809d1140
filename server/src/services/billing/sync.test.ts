import { expect, it } from 'vitest';
import { ownSourceTime, stripeSourceTime } from './sync';

it("stamps our own writes with Stripe's clock (the answer's Date header, to the second), else our current second", () => {
  const answer = {};
  Object.defineProperty(answer, 'lastResponse', { value: { headers: { date: 'Fri, 27 Nov 2026 03:50:07 GMT' } }, enumerable: false });
  const ours = Date.UTC(2026, 10, 27, 3, 55, 0, 750); // our clock five minutes ahead
  expect(stripeSourceTime(answer, ours)).toBe(Date.UTC(2026, 10, 27, 3, 50, 7));
  expect(stripeSourceTime({}, ours)).toBe(ownSourceTime(ours));
  expect(ownSourceTime(ours)).toBe(Date.UTC(2026, 10, 27, 3, 55, 0));
  expect(stripeSourceTime(null, ours)).toBe(ownSourceTime(ours));
});
