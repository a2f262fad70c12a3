// Placeholder until the billing screens land; keeps the default-export, no-props contract the
// router relies on.
export default function SubscriptionSuccessPage() {
  return (
    <main className="mx-auto max-w-2xl p-6">
      <h1 className="text-2xl font-bold">Processing Your Subscription...</h1>
      <p className="mt-2 text-slate-700">Confirming your payment.</p>
    </main>
  );
}
