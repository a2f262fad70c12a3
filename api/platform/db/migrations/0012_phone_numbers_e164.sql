INSERT INTO `job_state` (`name`, `value`) VALUES ('migration:0012_phone_numbers_e164', 'pending') ON CONFLICT(`name`) DO NOTHING;
