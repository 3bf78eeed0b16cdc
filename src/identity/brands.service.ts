import { Injectable } from '@nestjs/common';
import { BrandDirectory } from '../common/context/brand-directory';
import { AppError } from '../common/errors/app-error';
import { ErrorText } from '../common/errors/error-texts';
import { isUniqueViolation } from '../common/errors/pg-errors';
import { BrandsRepository } from './brands.repository';
import type { BrandEntity } from './entities/brand.entity';
import { normalizeEmail } from '../common/validation/email';

export interface BrandView {
  id: number;
  name: string;
  slug: string;
  staffEmail: string | null;
}

const toBrandView = (brand: BrandEntity): BrandView => ({
  id: brand.id,
  name: brand.name,
  slug: brand.slug,
  staffEmail: brand.staffEmail,
});

@Injectable()
export class BrandsService implements BrandDirectory {
  constructor(private readonly brands: BrandsRepository) {}

  async create(input: { name: string; slug: string; staffEmail?: string }): Promise<BrandView> {
    try {
      const brand = await this.brands.insert({
        name: input.name.trim(),
        slug: input.slug,
        staffEmail: input.staffEmail ? normalizeEmail(input.staffEmail) : null,
      });
      return toBrandView(brand);
    } catch (error) {
      if (isUniqueViolation(error, 'uq_brands_slug')) throw AppError.conflict(ErrorText.slugTaken);
      throw error;
    }
  }

  async list(): Promise<BrandView[]> {
    return (await this.brands.all()).map(toBrandView);
  }

  async exists(brandId: number): Promise<boolean> {
    return this.brands.exists(brandId);
  }

  async get(brandId: number): Promise<BrandView> {
    const brand = await this.brands.findById(brandId);
    if (!brand) throw AppError.notFound();
    return toBrandView(brand);
  }
}
