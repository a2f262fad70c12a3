// Placeholder until the billing screens land; keeps the default-export, no-props contract the
// router relies on.
export default function SubscriptionTestPage() {
  return (
    <main className="mx-auto max-w-2xl p-6">
      <h1 className="text-2xl font-bold">Subscription Test</h1>
      <p className="mt-2 text-slate-700">Developer billing test page.</p>
    </main>
  );
}
