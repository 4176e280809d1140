import { useLoginBox } from '../../context';
import { useAuth } from '../../use-auth';
import { BreachedPasswordStep } from './BreachedPasswordStep';
import { PasswordRotationExpiredStep } from './PasswordRotationExpiredStep';
import { PasswordRotationNotificationStep } from './PasswordRotationNotificationStep';

/** The login steps of the password policies (seed 000 section 4.2); loaded lazily by LoginScreen. */
export default function PolicyStep() {
  const { store } = useLoginBox();
  const { login } = useAuth(store);
  switch (login.step) {
    case 'passwordRotationExpired':
      return <PasswordRotationExpiredStep />;
    case 'passwordRotationNotification':
      return <PasswordRotationNotificationStep />;
    case 'breachedPassword':
    case 'breachedPasswordSuccess':
      return <BreachedPasswordStep />;
    default:
      return null;
  }
}
