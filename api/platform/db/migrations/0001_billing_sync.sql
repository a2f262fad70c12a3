ALTER TABLE `checkout_sessions` ADD `signs_in` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `users` ADD `billing_synced_at` integer;