/**
 * Account activation (seed 000 section 4.5): activating -> activatingForm when the strategy needs a
 * password -> success (signed in, navigated after 5 s; to login after 1 s when MFA is required).
 */
import type { GatehouseStore } from '../../core/types';
import type { ActivateRequest, ActivateWithCodeRequest, LoginResponse } from '../../wire';
import { SelfServicePaths } from '../../wire/users/self-service-paths';
import { ErrorCodes } from '../../wire/error-codes';
import { ACTIVATION_REDIRECT_DELAY_MS, MFA_REDIRECT_DELAY_MS } from '../../constants';
import { ErrorMessages, toGatehouseError } from '../../errors';
import type { FlowContext } from '../flow-context';
import { initialActivate } from '../state';

export type ActivationFlow = Pick<GatehouseStore, 'startActivation' | 'activate' | 'activateWithCode' | 'resendActivation'>;

export function createActivationFlow(ctx: FlowContext): ActivationFlow {
  const { atoms } = ctx;
  /** Signed in by an activation: the success state (its fixed wait), or the second factor first. */
  async function activated(response: LoginResponse): Promise<void> {
    if (response.mfaRequired) {
      ctx.set(atoms.activate, { ...initialActivate, step: 'success' });
      ctx.goAfter(MFA_REDIRECT_DELAY_MS, () => ctx.routes.loginUrl);
      return;
    }
    await ctx.establishSession(response);
    // Signed up through an invite link that was deleted or expired since: activated in a tenant of its own.
    ctx.set(atoms.activate, { ...initialActivate, step: 'success', ...(response.invitationFailed ? { error: ErrorMessages.invitationInvalid } : {}) });
    ctx.goAfter(ACTIVATION_REDIRECT_DELAY_MS, () => ctx.afterAuthTarget());
  }

  const flow = {
    async startActivation({ userId, token }: { userId: string; token: string }) {
      ctx.set(atoms.activate, { ...initialActivate, step: 'activating', loading: true });
      try {
        const strategy = await ctx.api.activateStrategy(userId, token);
        if (strategy.shouldSetPassword) {
          ctx.set(atoms.activate, { ...initialActivate, step: 'activatingForm' });
          return;
        }
      } catch (error) {
        const { message, errorCode } = toGatehouseError(error);
        ctx.set(atoms.activate, { ...initialActivate, step: 'failed', error: message, ...(errorCode ? { errorCode } : {}) });
        return;
      }
      await flow.activate({ userId, token });
    },

    async activate(input: ActivateRequest) {
      const from = ctx.get(atoms.activate).step;
      ctx.patch(atoms.activate, { loading: true, error: null });
      try {
        await activated(await ctx.api.activate(input));
      } catch (error) {
        const gatehouseError = toGatehouseError(error);
        // A password the policy refuses is fixed in the form; a bad or expired link is not.
        const stayOnForm = from === 'activatingForm' && gatehouseError.errorCode !== ErrorCodes.invalidActivationToken && gatehouseError.statusCode < 500 && gatehouseError.statusCode !== 404;
        ctx.set(atoms.activate, { ...initialActivate, step: stayOnForm ? 'activatingForm' : 'failed', error: gatehouseError.message, ...(gatehouseError.errorCode ? { errorCode: gatehouseError.errorCode } : {}) });
      }
    },

    /**
     * Activation by the code of the activation email (activateWithOTCUrl). Every refusal keeps the
     * form ('activatingForm') with the server's error; the code screen asks for a password when
     * the answer says one is required (another browser than the one that signed up).
     */
    async activateWithCode(input: ActivateWithCodeRequest) {
      ctx.patch(atoms.activate, { loading: true, error: null });
      try {
        await activated(await ctx.api.request<LoginResponse>('POST', SelfServicePaths.activateWithCode, { body: input }));
      } catch (error) {
        const { message, errorCode } = toGatehouseError(error);
        ctx.set(atoms.activate, { ...initialActivate, step: 'activatingForm', error: message, ...(errorCode ? { errorCode } : {}) });
      }
    },

    async resendActivation(email: string) {
      ctx.patch(atoms.activate, { loading: true, error: null, resendSent: false });
      try {
        await ctx.api.resendActivation(email.trim());
        ctx.set(atoms.activate, { ...initialActivate, step: 'resend', resendSent: true });
      } catch (error) {
        const { message, errorCode } = toGatehouseError(error);
        ctx.patch(atoms.activate, { loading: false, error: message, errorCode });
      }
    },
  };
  return flow;
}
