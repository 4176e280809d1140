import { SsoSection } from './sso/sso-section';
import type { SectionProps } from './section-props';

/** Single sign-on (fe.secure.read|write.samlConfiguration): the guided setup of the account's identity provider. */
export default function Sso(props: SectionProps) {
  return <SsoSection {...props} />;
}
