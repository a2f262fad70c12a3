import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { prepareForCsp } from './lib/csp';
import { queryClient } from './lib/query';
import { router } from './router';
import './styles.css';

prepareForCsp();

const root = document.getElementById('root');
if (!root) throw new Error('admin/index.html has no #root element');

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
