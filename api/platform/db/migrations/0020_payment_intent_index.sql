CREATE INDEX `payments_intent` ON `payments` (`payment_intent_id`);
