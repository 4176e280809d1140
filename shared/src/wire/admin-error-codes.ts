/**
 * Error codes of the admin API of users, roles, groups and invite links (ER-024xx, a range of its own
 * for migration 016). Apart from ErrorCodes because the browser core exports that whole object before
 * the login form, and the login box never needs these. Plain data: the admin portal may import it.
 */
export const AdminErrorCodes = {
  /** An admin may not delete, disable, lock, expire or change the roles of their own membership. */
  cannotManageSelf: 'ER-02401',
  /** The target user holds permissions the admin lacks (or is a super user): no admin may manage someone above them. */
  userNotManageable: 'ER-02402',
  /** Another role of the tenant already has this key. */
  roleKeyTaken: 'ER-02403',
  /** Another group of the tenant already has this name. */
  groupNameTaken: 'ER-02404',
  /** The group is managed by an identity provider and is read-only here. */
  groupManagedByProvider: 'ER-02405',
  /** Built-in permissions (the fe.* catalogue) cannot be changed or deleted; or a permission key is taken. */
  permissionNotChangeable: 'ER-02406',
  /** The invite link is unknown or expired. */
  invalidInviteLink: 'ER-02407',
  /** The tenant already has an invite link (update or delete it instead). */
  inviteLinkExists: 'ER-02408',
  /** Temporary users are turned off (TEMPORARY_USERS=false). */
  temporaryUsersDisabled: 'ER-02409',
  /** A permission category still has permissions; move or delete them first. */
  categoryInUse: 'ER-02410',
} as const;

export type AdminErrorCode = (typeof AdminErrorCodes)[keyof typeof AdminErrorCodes];
