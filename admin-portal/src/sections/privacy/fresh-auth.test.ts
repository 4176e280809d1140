import { describe, expect, it } from 'vitest';
import { freshAuthNeeded, stepUpHref } from './fresh-auth';

describe('fresh authentication', () => {
  it('tells a recent sign-in (ER-01306) from a step-up (ER-01307, with its maxAge) and from any other refusal', () => {
    expect(freshAuthNeeded({ errorCode: 'ER-01306', message: 'Sign in again' })).toEqual({ kind: 'signIn' });
    expect(freshAuthNeeded({ errorCode: 'ER-01307', errorContext: { maxAge: 600 } })).toEqual({ kind: 'stepUp', maxAge: 600 });
    expect(freshAuthNeeded({ errorCode: 'ER-01307', errorContext: { maxAge: 'soon' } })).toEqual({ kind: 'stepUp', maxAge: null });
    expect(freshAuthNeeded({ errorCode: 'ER-02702' })).toBeNull();
    expect(freshAuthNeeded(new Error('network'))).toBeNull();
    expect(freshAuthNeeded(null)).toBeNull();
  });

  it('builds the step-up route with maxAge and the way back, whatever the route already carries', () => {
    expect(stepUpHref('/account/step-up', 300, 'https://app.example.com/settings?tab=2')).toBe('/account/step-up?maxAge=300&redirectUrl=https%3A%2F%2Fapp.example.com%2Fsettings%3Ftab%3D2');
    expect(stepUpHref('/login?flow=step-up', null, 'https://app.example.com/')).toBe('/login?flow=step-up&redirectUrl=https%3A%2F%2Fapp.example.com%2F');
  });
});
