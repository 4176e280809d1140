import type { AuthUser } from './contract';

/** Initials for an avatar placeholder: first letters of the first two words of the name or email. */
export function initialsOf(nameOrEmail: string): string {
  const words = nameOrEmail.split(/[\s@._-]+/).filter(Boolean);
  return words.slice(0, 2).map((word) => word[0]!.toUpperCase()).join('') || '?';
}

/** Avatar image or initials. */
export function Avatar({ name, src, size = 'small' }: { name: string; src: string | null | undefined; size?: 'small' | 'large' }) {
  return src ? (
    <img className={`gh-ap-avatar gh-ap-avatar-${size}`} src={src} alt="" />
  ) : (
    <span className={`gh-ap-avatar gh-ap-avatar-${size}`} aria-hidden="true">{initialsOf(name)}</span>
  );
}

/** Who is signed in, and in which account, for the portal header. */
export function UserBadge({ user, tenantName }: { user: AuthUser; tenantName: string | null }) {
  return (
    <div className="gh-ap-user">
      <Avatar name={user.name || (user.email ?? user.phoneNumber ?? '')} src={user.profilePictureUrl} />
      <div className="gh-ap-user-text">
        <p className="gh-ap-user-name">{user.name || (user.email ?? user.phoneNumber)}</p>
        <p className="gh-ap-user-meta">
          {/* A phone sign-up account has no email: its phone number stands in. */}
          {user.name ? <span>{user.email ?? user.phoneNumber}</span> : null}
          {tenantName ? <span className="gh-ap-user-tenant">{tenantName}</span> : null}
        </p>
      </div>
    </div>
  );
}
