/** The connectivity area's services (issue 16): events, the delivery queue and its worker; each part adds its own exports here. */
export { raiseEvent, type EventActor, type RaisedEvent } from './events';
export { cancelJobsForTarget, enqueueJob, retryJobNow, type ClaimedJob, type JobHandler, type JobKind, type JobResult } from './jobs';
export { createConnectivityWorker, type ConnectivityWorker, type EventConsumer } from './worker';
export { notifyTenantAdmins, type NotificationInput } from './notifications';
