import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import type { Tx } from '../database/transactions';
import { BrandEntity } from './entities/brand.entity';

/** The brands table. */
@Injectable()
export class BrandsRepository {
  constructor(@InjectRepository(BrandEntity) private readonly brands: Repository<BrandEntity>) {}

  insert(brand: { name: string; slug: string; staffEmail: string | null }): Promise<BrandEntity> {
    return this.brands.save(this.brands.create(brand));
  }

  all(): Promise<BrandEntity[]> {
    return this.brands.find({ order: { id: 'ASC' } });
  }

  exists(brandId: number): Promise<boolean> {
    return this.brands.exists({ where: { id: brandId } });
  }

  findById(brandId: number): Promise<BrandEntity | null> {
    return this.brands.findOne({ where: { id: brandId } });
  }

  /** Sets the brand's policy and says what it was, under the row's lock; null when no such brand. */
  async setRequireSecondFactor(tx: Tx, brandId: number, value: boolean): Promise<{ before: boolean } | null> {
    const rows: Array<{ before: boolean }> = await tx.query(
      `SELECT require_second_factor AS before FROM brands WHERE id = $1 FOR UPDATE`,
      [brandId],
    );
    if (rows.length === 0) return null;
    await tx.query('UPDATE brands SET require_second_factor = $2 WHERE id = $1', [brandId, value]);
    return rows[0];
  }
}
