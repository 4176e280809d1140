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
  /** Sub-accounts (migration 021, ER-0245x): the tenant id chosen on create is taken. */
  tenantIdTaken: 'ER-02451',
  /** The account still has sub-accounts: delete or move them first. */
  subAccountHasChildren: 'ER-02452',
  /** The new parent is the account itself or one of its descendants (a tenant cannot become its own ancestor). */
  subAccountCycle: 'ER-02453',
  /** Seed 001 section 5: a hierarchy settings update needs an access type. */
  subAccountAccessTypeRequired: 'ER-02454',
  /** The user is already in the sub-account (change their roles instead). */
  userAlreadyInAccount: 'ER-02455',
  /** Usernames (ER-0247x): another account already uses this username (compared ignoring case). */
  usernameTaken: 'ER-02471',
  /** The account already has a username: delete it first (seed 001 section 5 "Username save"). */
  usernameExists: 'ER-02472',
} as const;

export type AdminErrorCode = (typeof AdminErrorCodes)[keyof typeof AdminErrorCodes];
