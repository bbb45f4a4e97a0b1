-- Outgoing webhooks for the events of fields and payments (issue 24), fed like the others by the
-- database (0025's enqueue_funnel_webhooks), in the transaction of the change itself: every
-- writer (an answer in the bot, the owner's edit, the incoming webhook, a Stars payment, a
-- refund) is covered without knowing that webhooks exist.
CREATE FUNCTION "person_fields_webhooks"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_funnel_id int;
  v_key text;
  v_title text;
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.value IS NOT DISTINCT FROM OLD.value THEN
    RETURN NULL;
  END IF;
  SELECT f.funnel_id, f.key, f.title INTO v_funnel_id, v_key, v_title FROM funnel_fields f WHERE f.id = NEW.field_id;
  IF v_funnel_id IS NOT NULL THEN
    PERFORM enqueue_funnel_webhooks(v_funnel_id, NEW.person_id, 'field.answered',
      jsonb_build_object('field_id', NEW.field_id, 'key', v_key, 'title', v_title, 'value', NEW.value));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "person_fields_webhooks" AFTER INSERT OR UPDATE OF "value" ON "person_fields" FOR EACH ROW EXECUTE FUNCTION "person_fields_webhooks"();--> statement-breakpoint
CREATE FUNCTION "funnel_payments_webhooks"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' AND NEW.state = 'paid' THEN
    PERFORM enqueue_funnel_webhooks(NEW.funnel_id, NEW.person_id, 'payment.paid', jsonb_build_object(
      'payment_id', NEW.id, 'amount', NEW.amount, 'currency', NEW.currency, 'provider', NEW.provider,
      'charge_id', NEW.charge_id, 'stage_id', NEW.stage_id));
  ELSIF TG_OP = 'UPDATE' AND NEW.state = 'refunded' AND OLD.state <> 'refunded' THEN
    PERFORM enqueue_funnel_webhooks(NEW.funnel_id, NEW.person_id, 'payment.refunded', jsonb_build_object(
      'payment_id', NEW.id, 'amount', NEW.amount, 'currency', NEW.currency, 'provider', NEW.provider,
      'charge_id', NEW.charge_id, 'stage_id', NEW.stage_id));
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "funnel_payments_webhooks" AFTER INSERT OR UPDATE OF "state" ON "funnel_payments" FOR EACH ROW EXECUTE FUNCTION "funnel_payments_webhooks"();
