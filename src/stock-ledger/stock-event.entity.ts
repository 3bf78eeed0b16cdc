import { keepColumnsOf } from '../domain-events/domain-event.entity';
import { STOCK_EVENT_COLUMNS } from './stock-event-columns';

// The stock ledger's columns of domain_events (migration StockEventStorage), as TypeORM sees them.
keepColumnsOf(STOCK_EVENT_COLUMNS);
