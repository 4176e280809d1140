/**
 * The store's side of the captcha policy (seed 000 sections 7.2 and 8): the policy is fetched on
 * first use, never before the login form is shown, and a failed load is swallowed (null: sign-in
 * goes on without captcha). While it is on, protected calls ask the bundle's provider for a token;
 * the provider, which loads the reCAPTCHA script, lives in the login box's own lazy chunk. This
 * module is the small part that must run on every sign-in to learn whether captcha is on at all.
 */
import type { CaptchaPolicy, CaptchaTokenProvider, GatehouseApi, GatehouseStore } from '../../core/types';
import type { CaptchaAction } from '../../wire/platform/captcha';
import { ApiPaths } from '../../wire/paths';

export interface CaptchaFlow {
  methods: Pick<GatehouseStore, 'loadCaptchaPolicy' | 'setCaptchaProvider'>;
  /** A token for `action` while the policy is on (undefined while off); rejects when the provider fails. */
  token(action: CaptchaAction): Promise<string | undefined>;
  /** Loads the policy and, if it is on, the script, so the first protected call does not wait for them. */
  prepare(): void;
}

export function createCaptchaFlow(api: GatehouseApi): CaptchaFlow {
  let policy: Promise<CaptchaPolicy | null> | null = null;
  let provider: CaptchaTokenProvider | null = null;

  const loadCaptchaPolicy = () =>
    (policy ??= api.request<CaptchaPolicy>('GET', ApiPaths.captchaPolicyPublic).catch(() => {
      // Swallowed (seed 8); asked again on the next protected call.
      policy = null;
      return null;
    }));

  async function run(action?: CaptchaAction): Promise<string | undefined> {
    const current = await loadCaptchaPolicy();
    return current?.enabled && provider ? provider(current, action) : undefined;
  }

  return {
    methods: {
      loadCaptchaPolicy,
      setCaptchaProvider: (next) => void (provider = next),
    },
    token: run,
    prepare: () => void run().catch(() => undefined),
  };
}
