import { Link } from 'react-router';
import { Button } from '../components/ui/button';

export default function NotFoundPage() {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-4 p-6 text-center">
      <title>404 Page Not Found</title>
      <p className="text-6xl font-extrabold text-brand-600" aria-hidden="true">
        404
      </p>
      <h1 className="text-2xl font-bold">404 Page Not Found</h1>
      <p className="max-w-md text-slate-700">The page you were looking for doesn't exist or has moved.</p>
      <Button asChild>
        <Link to="/">Back to Home</Link>
      </Button>
    </main>
  );
}
