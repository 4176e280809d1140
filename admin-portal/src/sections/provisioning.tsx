import { ProvisioningSection } from './provisioning/provisioning-section';
import type { SectionProps } from './section-props';

/** SCIM provisioning (fe.secure.read|write.provisioningConfiguration): connections, their tokens, setup steps and request logs. */
export default function Provisioning(props: SectionProps) {
  return <ProvisioningSection {...props} />;
}
