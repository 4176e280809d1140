import { TokensSection } from './api-tokens/tokens-section';
import type { SectionProps } from './section-props';

/** The signed-in user's personal API tokens (fe.secure.read|write.userApiTokens): they act as that user. */
export default function PersonalApiTokensSection(props: SectionProps) {
  return <TokensSection {...props} kind="user" />;
}
