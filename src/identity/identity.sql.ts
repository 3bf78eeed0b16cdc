/**
 * Identity's statement parts, for the few hot statements of other modules that must read a user
 * or a brand in the same round trip (the key checks, the order mails). Arguments are SQL
 * expressions of the calling statement. Everything else reaches identity through its services.
 */
export const IdentitySql = {
  /**
   * True while `user` may still act for `brand` as the author of a key: active, and a
   * superadministrator when `asSuperadmin`, else a superadministrator or a member holding
   * `permission`.
   */
  authorInGoodStanding: (p: { user: string; brand: string; asSuperadmin: string; permission: string }) =>
    `EXISTS (SELECT 1 FROM users u LEFT JOIN memberships m ON m.user_id = u.id AND m.brand_id = ${p.brand}
              WHERE u.id = ${p.user} AND u.active
                AND CASE WHEN ${p.asSuperadmin} THEN u.is_superadmin
                         ELSE u.is_superadmin OR ${p.permission} = ANY (m.permissions) END)`,

  /** A user's e-mail. */
  userEmail: (user: string) => `(SELECT email FROM users WHERE id = ${user})`,

  /** One column of a brand. */
  brandField: (brand: string, field: 'name' | 'slug' | 'staff_email') =>
    `(SELECT ${field} FROM brands WHERE id = ${brand})`,
};
