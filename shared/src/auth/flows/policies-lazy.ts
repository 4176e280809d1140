/**
 * The store's side of the password-policies flow: a check of the sign-in answer that costs a few
 * bytes, and thin methods that load flows/policies.ts (its own chunk) the first time they are used.
 */
import type { LoginResponse } from '../../wire/auth/auth';
import type { FlowContext } from '../flow-context';
import type { PoliciesFlow, PoliciesFlowModule } from './policies';

export function createLazyPoliciesFlow(ctx: FlowContext): { methods: PoliciesFlow; afterLogin(response: LoginResponse, input: { email: string; password: string }): Promise<boolean> } {
  let loaded: Promise<PoliciesFlowModule> | null = null;
  const flow = () =>
    (loaded ??= import('./policies').then(
      (m) => m.createPoliciesFlow(ctx),
      (error: unknown) => {
        loaded = null;
        throw error;
      },
    ));
  return {
    /** True when the answer leads to a policy step (and that step is now shown). */
    async afterLogin(response, input) {
      if (!response.resetPasswordToken && !response.isBreachedPassword && !response.passwordRotation) return false;
      await (await flow()).applyLoginPolicies(response, input);
      return true;
    },
    methods: {
      setRotatedPassword: async (password) => (await flow()).setRotatedPassword(password),
      continueAfterRotationNotice: async () => (await flow()).continueAfterRotationNotice(),
      sendBreachedPasswordReset: async () => (await flow()).sendBreachedPasswordReset(),
      unlockAccount: async (token) => (await flow()).unlockAccount(token),
    },
  };
}
