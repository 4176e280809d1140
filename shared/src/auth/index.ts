export { createGatehouseStore, type GatehouseStoreOptions, type KeyValueStorage } from './store';
export { createGatehouse, type CreateGatehouseOptions } from './create-gatehouse';
export { systemTimers, type Timers } from './timers';
