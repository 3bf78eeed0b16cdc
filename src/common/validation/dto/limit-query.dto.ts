import { QueryInt } from '../query-int.decorator';

/** The `limit` every list takes: 1–200, default 50 (contract §6, §8). */
export class LimitQueryDto {
  @QueryInt({ min: 1, max: 200, default: 50 })
  limit: number = 50;
}
