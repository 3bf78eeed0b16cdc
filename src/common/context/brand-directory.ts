/**
 * Lets the brand guard ask whether a brand exists without depending on the module that owns
 * brands. Provided by the identity module.
 */
export abstract class BrandDirectory {
  abstract exists(brandId: number): Promise<boolean>;
}
