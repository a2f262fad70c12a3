DROP INDEX `quotes_company_created`;--> statement-breakpoint
CREATE INDEX `quotes_company_created` ON `quotes` (`company_id`,`created_at`,`status`,`total_price_pence`,`pickup_postcode`);