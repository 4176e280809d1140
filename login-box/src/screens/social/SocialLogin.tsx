import { SocialLoginButtons } from './SocialLoginButtons';
import { SocialLoginCallbackScreen } from './SocialLoginCallbackScreen';

/**
 * Both social login screens in one lazily loaded chunk: the provider buttons of the login form, and
 * (`callback`) the social-login callback route. Every chunk adds an integrity entry to the manifest
 * fetched before the login form is interactive, so the two share one.
 */
export default function SocialLogin({ callback = false }: { callback?: boolean }) {
  return callback ? <SocialLoginCallbackScreen /> : <SocialLoginButtons />;
}
