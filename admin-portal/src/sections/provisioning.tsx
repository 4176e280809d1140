import { ComingSoon } from './coming-soon';
import type { SectionProps } from './section-props';

/** Not implemented in this version: an honest empty state. */
export default function ProvisioningSection(props: SectionProps) {
  return <ComingSoon title={props.title} headingId={props.headingId} />;
}
