/** The users area: sign-up (email and phone), the signed-in user's profile, sessions and username, and invitations. */
import { createEmailChangeService } from '../../services/users/email-change';
import { emailChangeRoutes } from './email-change';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../http/env';
import { AMR_PASSWORD } from '../../services/auth/auth';
import type { MfaService } from '../../services/mfa/mfa';
import { createInvitationService, type InvitationService } from '../../services/users/invitations';
import { createPhoneSignUpService } from '../../services/users/phone-signup';
import { createSessionService } from '../../services/users/sessions';
import { createSignUpService, type SignUpService } from '../../services/users/signup';
import { createUsernameService } from '../../services/users/usernames';
import { createUserService, type UserService } from '../../services/users/users';
import type { RouteDeps } from '../deps';
import { invitationRoutes } from './invitations';
import { meRoutes } from './me';
import { profileImageRoutes } from './profile-image';
import { sessionListRoutes } from './sessions';
import { signUpRoutes } from './signup';
import { phoneSignUpRoutes } from './signup-phone';
import { usernameRoutes } from './usernames';

export interface UsersArea {
  users: UserService;
  signUp: SignUpService;
  invitations: InvitationService;
}

/** Builds the users services and registers their routes; accepting an invitation asks `mfa` for the second step. */
export function usersArea(app: OpenAPIHono<AppEnv>, deps: RouteDeps, areas: { mfa: Pick<MfaService, 'gateLogin'> }): UsersArea {
  const { db, mail, emails, clock, auth, limiter, config } = deps;
  const { mfa } = areas;
  const users = createUserService({ db, clock, config });
  const signUp = createSignUpService({ db, mail, emails, clock, auth, limiter, config, security: deps.security.policies, emailDomains: deps.security.emailDomains, seats: deps.entitlements });
  const phoneSignUp = createPhoneSignUpService({ db, clock, limiter, config });
  const invitations = createInvitationService({ db, mail, emails, clock, auth, limiter, config, security: deps.security.policies, emailDomains: deps.security.emailDomains, seats: deps.entitlements, secondFactor: (user, client) => mfa.gateLogin(user, client, AMR_PASSWORD) });
  app.route('/', signUpRoutes(deps, signUp));
  app.route('/', phoneSignUpRoutes(deps, phoneSignUp));
  app.route('/', meRoutes(deps, users));
  app.route('/', profileImageRoutes(deps, users));
  app.route('/', invitationRoutes(deps, invitations, clock));
  app.route('/', sessionListRoutes(deps, createSessionService({ db, clock })));
  app.route('/', usernameRoutes(deps, createUsernameService({ db })));
  app.route('/', emailChangeRoutes(deps, createEmailChangeService({ db, clock, mail, emails, limiter, emailDomains: deps.security.emailDomains, userEmails: deps.security.policies })));
  return { users, signUp, invitations };
}
