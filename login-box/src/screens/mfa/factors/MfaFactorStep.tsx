/**
 * SMS and WebAuthn second factors in the login box, its own chunk (loaded only when an account
 * has such a factor or may enrol one): the enrolment choice, the SMS steps, and the other ways in
 * on the verify step.
 */
import { EnrolChoice } from './EnrolChoice';
import { OtherFactors } from './OtherFactors';
import { SmsSteps } from './SmsSteps';

export default function MfaFactorStep({ part, primary = false }: { part: 'enrol' | 'sms' | 'others'; primary?: boolean }) {
  if (part === 'enrol') return <EnrolChoice />;
  if (part === 'sms') return <SmsSteps />;
  return <OtherFactors primary={primary} />;
}
