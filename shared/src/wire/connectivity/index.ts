/** The connectivity area's wire contract (issue 16): one module per part, re-exported here. */
export * from './paths';
export * from './events';
export * from './webhooks';
export * from './channels';
export * from './notifications';
export * from './report-paths';
export * from './reports';
