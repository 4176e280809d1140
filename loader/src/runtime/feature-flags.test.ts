import { expect, it } from 'vitest';
import { onOrOff } from './index';

it("gives the app's feature flags as 'on' or 'off': only 'on' is on, as the bundles read a flag", () => {
  expect(onOrOff({ 'show-passkeys-new': 'on', beta: 'off', legacy: 'true', empty: '' })).toEqual({ 'show-passkeys-new': 'on', beta: 'off', legacy: 'off', empty: 'off' });
  expect(onOrOff({})).toEqual({});
});
