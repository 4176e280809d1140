/** The CDN tab's component tests (cdn-tab, cdn-publish): the Operator section opened on it for a super user, over a recording API. */
import { render, within } from '@testing-library/react';
import { readAdminPortalOptions } from '../../options';
import { createTestStore, makeUser, shadowMountPoint } from '../../test/fake-store';
import { recordingApi, type Failure } from '../../test/section-harness';
import OperatorSection from '../operator';

/** The operator API's CDN routes. */
export const CDN_API = '/operator/resources/cdn/v1';

/** Renders the Operator section on its CDN tab; `answer` answers the calls (`{}` when it returns undefined), `failures` fail. */
export function openCdnTab(answer: (method: string, path: string) => unknown, failures: Failure[] = []) {
  const { api, calls } = recordingApi(answer, failures);
  const { domElement } = shadowMountPoint();
  const user = makeUser({ superUser: true });
  const store = createTestStore(user);
  render(<OperatorSection title="Operator" headingId="op-heading" user={user} snapshot={store.getSnapshot()} store={store} api={api} options={readAdminPortalOptions(undefined)} target="cdn" />, { container: domElement });
  return { view: within(domElement), calls };
}
