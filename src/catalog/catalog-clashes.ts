import { AppError } from '../common/errors/app-error';
import { ErrorText } from '../common/errors/error-texts';
import { isUniqueViolation } from '../common/errors/pg-errors';

/** A catalog write that met one of the catalog's unique keys (a concurrent change won the race): 409 naming it. */
export async function translateCatalogClashes<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error, 'uq_products_article')) throw AppError.conflict(ErrorText.productArticleTaken);
    if (isUniqueViolation(error, 'uq_products_storefront_article')) {
      throw AppError.conflict(ErrorText.storefrontArticleTaken);
    }
    if (isUniqueViolation(error, 'uq_product_sizes_name')) throw AppError.conflict(ErrorText.sizeNameTaken);
    throw error;
  }
}
