import type { Config } from '../config';
import type { Db } from '../db';
import type { AuthService } from '../services/auth';
import type { CaptchaService } from '../services/captcha';
import type { KeyService } from '../services/keys';
import type { PublicService } from '../services/public';
import type { SignUpService } from '../services/signup';
import type { UserService } from '../services/users';

/** What route modules get: the config and the services, never the database for rules. */
export interface RouteDeps {
  config: Config;
  db: Db;
  keys: KeyService;
  auth: AuthService;
  users: UserService;
  signUp: SignUpService;
  publicInfo: PublicService;
  /** The captcha policy: the public policy and the check of a call's recaptchaToken. */
  captcha: CaptchaService;
}
