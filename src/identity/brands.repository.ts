import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
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
}
