// The frame of the pages an account's emailed links open (verify an address, choose a new
// password): the brand, one card, and a way back.
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { BrandMark } from '../../components/BrandMark';
import { Card, CardContent, CardDescription, CardHeader } from '../../components/ui';

export function AccountCard({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  return (
    <main className="flex min-h-screen flex-col items-center justify-center gap-6 bg-slate-50 px-4 py-8">
      <title>{title}</title>
      <Link to="/" aria-label="Home">
        <BrandMark />
      </Link>
      <Card className="w-full max-w-md">
        <CardHeader>
          <h1 className="text-2xl font-semibold leading-tight">{title}</h1>
          {description && <CardDescription>{description}</CardDescription>}
        </CardHeader>
        <CardContent className="grid gap-4">{children}</CardContent>
      </Card>
    </main>
  );
}
