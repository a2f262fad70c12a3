// /company/:slug inside the SPA. The server answers this path itself with a small hosted page
// (docs/product.md §13); this route covers navigation that stays inside the SPA.
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { call, mayPass, pathOf, portalApi } from '#shared/api-client';
import { FullPageSpinner } from '../components/ui';
import { CompanyWrapper } from './CompanyWrapper';
import NotFoundPage from './NotFoundPage';

/** docs/product.md §7: the slug lookup retries 3 times, 1 second apart; a 404 is an answer, not a failure. */
const SLUG_RETRIES = 3;
const SLUG_RETRY_DELAY_MS = 1000;

export default function CompanyPage() {
  const { slug = '' } = useParams();
  const company = useQuery({
    queryKey: [pathOf(portalApi.company.slug[':slug'], { param: { slug } })],
    queryFn: () => call(portalApi.company.slug[':slug'].$get, { param: { slug } }, { anonymous: true }),
    retry: (failures, error) => failures < SLUG_RETRIES && mayPass(error),
    retryDelay: SLUG_RETRY_DELAY_MS,
  });
  if (company.isLoading) return <FullPageSpinner />;
  if (company.isError || !company.data) return <NotFoundPage />;
  return (
    <main>
      <title>{company.data.name}</title>
      <CompanyWrapper company={company.data} />
    </main>
  );
}
