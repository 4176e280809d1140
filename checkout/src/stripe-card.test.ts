import { describe, expect, it } from 'vitest';
import { isCardProblem } from './stripe-card';

describe('isCardProblem', () => {
  it("puts Stripe's card and validation errors, and card codes under any type, under the card field", () => {
    expect(isCardProblem({ type: 'card_error', code: 'card_declined' })).toBe(true);
    expect(isCardProblem({ type: 'validation_error', code: 'incomplete_number' })).toBe(true);
    // The emulator's shape for a declined card.
    expect(isCardProblem({ type: 'invalid_request_error', code: 'card_declined' })).toBe(true);
  });

  it('keeps other errors general', () => {
    expect(isCardProblem({ type: 'invalid_request_error', code: 'resource_missing' })).toBe(false);
    expect(isCardProblem({ type: 'api_error' })).toBe(false);
    expect(isCardProblem(null)).toBe(false);
  });
});
