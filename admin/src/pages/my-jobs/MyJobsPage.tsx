// /dashboard/my-jobs: a driver's own screen (docs/product.md, "The team"), where a driver lands on
// signing in. The jobs assigned to them today are listed here; until any are, it says so.
import { PortalShell } from '../../components/PortalShell';

export default function MyJobsPage() {
  return (
    <PortalShell>
      <main className="mx-auto max-w-xl px-4 py-8">
        <title>My jobs</title>
        <h1 className="text-2xl font-bold tracking-tight">My jobs</h1>
        <p className="mt-4 text-slate-700">No jobs assigned to you today.</p>
      </main>
    </PortalShell>
  );
}
