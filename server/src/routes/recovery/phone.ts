import { createRoute, OpenAPIHono } from '@hono/zod-openapi';
import {
  AddPhoneNumberRequest, ChangePhoneNumberRequest, ChangePhoneNumberResponse, MfaFactorPaths, ResetPhoneNumberRequest, ResetPhoneNumberResponse,
  VerifyPhoneNumberRequest, VerifyPhoneNumberResponse, VerifyResetPhoneNumberRequest, VerifyResetPhoneNumberResponse,
} from '@gatehouse/shared/wire';
import type { Context } from 'hono';
import type { AppEnv } from '../../http/env';
import { rateLimitedResponse, validationHook } from '../../http/errors';
import { requireAuth } from '../../http/middleware';
import type { PhoneChangeService } from '../../services/recovery/phone-change';
import type { RouteDeps } from '../deps';
import { json, err, body } from '../openapi';

/** Reset phone number (ResetPhoneNumber, VerifyResetPhoneNumber, ChangePhoneNumber) and the signed-in phone change (seed 000 section 7.3). */
export function phoneRoutes(deps: RouteDeps, phone: PhoneChangeService): OpenAPIHono<AppEnv> {
  const { config, auth } = deps;
  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  const ip = (c: Context<AppEnv>) => c.get('client');
  const base = { tags: ['phone'] };

  app.openapi(
    createRoute({
      ...base, method: 'post', path: MfaFactorPaths.phoneReset, summary: 'ResetPhoneNumber: email a code to the account (the same answer whether or not it exists)', request: body(ResetPhoneNumberRequest),
      responses: { 200: json(ResetPhoneNumberResponse, 'Accepted; verify the emailed code with this token'), 400: err('Invalid body'), 429: rateLimitedResponse },
    }),
    async (c) => c.json(await phone.requestReset(c.req.valid('json').email, ip(c)), 200),
  );

  app.openapi(
    createRoute({
      ...base, method: 'post', path: MfaFactorPaths.phoneResetVerify, summary: 'VerifyResetPhoneNumber: the emailed code gives a token to set a new number (with mfaToken, a password sign-in, it may also replace the SMS second factor)', request: body(VerifyResetPhoneNumberRequest),
      responses: {
        200: json(VerifyResetPhoneNumberResponse, 'The token for PUT phone/change'), 400: err('Wrong, expired or used code'), 401: err('mfaToken expired, used, of another user or not from a password sign-in'),
        403: err('The phone is an SMS second factor: start from a password sign-in ("Lost your phone?") with its mfaToken'), 429: rateLimitedResponse,
      },
    }),
    async (c) => {
      const { resetPhoneNumberToken, code, mfaToken } = c.req.valid('json');
      return c.json(await phone.verifyReset(resetPhoneNumberToken, code, ip(c), mfaToken), 200);
    },
  );

  app.openapi(
    createRoute({
      ...base, method: 'put', path: MfaFactorPaths.phoneChange, summary: 'ChangePhoneNumber: text a code to the new number (after a verified reset)', request: body(ChangePhoneNumberRequest),
      responses: { 200: json(ChangePhoneNumberResponse, 'changePhoneId for phone/verify; the number is masked'), 400: err('Invalid number, or the reset expired'), 403: err('The phone is an SMS second factor and the reset came without a password sign-in'), 429: rateLimitedResponse, 502: err('The SMS provider failed') },
    }),
    async (c) => {
      const { changePhoneNumberToken, phoneNumber } = c.req.valid('json');
      return c.json(await phone.changeAfterReset(changePhoneNumberToken, phoneNumber, ip(c)), 200);
    },
  );

  app.openapi(
    createRoute({
      ...base, method: 'post', path: MfaFactorPaths.phone, summary: "Set or change the signed-in user's phone number: a code is texted to it", security: [{ Bearer: [] }], middleware: [requireAuth(auth)] as const,
      request: body(AddPhoneNumberRequest),
      responses: { 200: json(ChangePhoneNumberResponse, 'changePhoneId for phone/verify; the number is masked'), 400: err('Invalid number'), 401: err('Not signed in'), 403: err('Needs a recent sign-in, or a recent step-up when the account has a second factor'), 429: rateLimitedResponse, 502: err('The SMS provider failed') },
    }),
    async (c) => c.json(await phone.startChange(c.get('auth'), c.req.valid('json').phoneNumber), 200),
  );

  app.openapi(
    createRoute({
      ...base, method: 'post', path: MfaFactorPaths.phoneVerify, summary: 'Confirm the new number with the texted code; it replaces the old one (after a reset, also as the SMS second factor)', request: body(VerifyPhoneNumberRequest),
      responses: { 200: json(VerifyPhoneNumberResponse, 'The new number, masked'), 400: err('Wrong, expired or used code'), 403: err('After a reset without a password sign-in: the account has an SMS second factor'), 409: err('The number belongs to another account'), 429: rateLimitedResponse },
    }),
    async (c) => {
      const { changePhoneId, code } = c.req.valid('json');
      return c.json(await phone.verifyChange(changePhoneId, code, ip(c)), 200);
    },
  );

  return app;
}
