import { Identity1763769600000 } from './1763769600000-identity';

/** Every migration, in order. A new migration is added here as well as in its own file. */
export const migrations = [Identity1763769600000];
