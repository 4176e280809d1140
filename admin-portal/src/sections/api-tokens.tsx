import { TokensSection } from './api-tokens/tokens-section';
import type { SectionProps } from './section-props';

/** Account API tokens (fe.secure.read|write.tenantApiTokens): they act with the roles given to them. */
export default function ApiTokensSection(props: SectionProps) {
  return <TokensSection {...props} kind="tenant" />;
}
