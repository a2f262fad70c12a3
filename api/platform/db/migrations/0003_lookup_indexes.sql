CREATE INDEX `checkout_sessions_user` ON `checkout_sessions` (`user_id`);--> statement-breakpoint
CREATE INDEX `users_company` ON `users` (`company_id`);--> statement-breakpoint
CREATE INDEX `users_stripe_customer` ON `users` (`stripe_customer_id`);