-- Flow documents in their one canonical form (issue 46, D37, D70). Earlier releases stored,
-- beside a split step's `paths`, members "paths.0.steps" … "paths.4.steps": copies of its
-- paths' steps carrying the ids the service gave them, while the steps in `paths` (the ones
-- runs follow) had none. Every stored version is rewritten here: those members go, and each
-- step without an id takes the one its copy had (same place, same type), so no id is lost.
-- Positions of runs, statistics and history name steps by path and do not change.

CREATE FUNCTION flow_steps_canonical(steps jsonb, copies jsonb) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  result jsonb := '[]'::jsonb;
  step jsonb;
  copy jsonb;
  paths jsonb;
  side text;
  i int;
  j int;
BEGIN
  IF jsonb_typeof(steps) IS DISTINCT FROM 'array' THEN
    RETURN steps;
  END IF;
  FOR i IN 0 .. jsonb_array_length(steps) - 1 LOOP
    step := steps -> i;
    copy := CASE WHEN jsonb_typeof(copies) = 'array' THEN copies -> i END;
    IF jsonb_typeof(step) IS DISTINCT FROM 'object' THEN
      result := result || jsonb_build_array(step);
      CONTINUE;
    END IF;
    IF jsonb_typeof(copy) IS DISTINCT FROM 'object' OR copy ->> 'type' IS DISTINCT FROM step ->> 'type' THEN
      copy := NULL;
    END IF;
    IF NOT step ? 'id' AND copy ? 'id' THEN
      step := step || jsonb_build_object('id', copy -> 'id');
    END IF;
    -- Branch and wait_for paths: the copy's lists hold the ids of theirs.
    FOREACH side IN ARRAY ARRAY['then', 'else', 'on_event', 'on_timeout'] LOOP
      IF jsonb_typeof(step -> side) = 'array' THEN
        step := jsonb_set(step, ARRAY[side], flow_steps_canonical(step -> side, copy -> side));
      END IF;
    END LOOP;
    -- A split's paths: the ids are in the split's own "paths.<j>.steps" (or its copy's).
    IF jsonb_typeof(step -> 'paths') = 'array' THEN
      paths := '[]'::jsonb;
      FOR j IN 0 .. jsonb_array_length(step -> 'paths') - 1 LOOP
        paths := paths || jsonb_build_array(
          CASE WHEN jsonb_typeof(step -> 'paths' -> j -> 'steps') = 'array' THEN
            jsonb_set(
              step -> 'paths' -> j,
              '{steps}',
              flow_steps_canonical(
                step -> 'paths' -> j -> 'steps',
                coalesce(step -> ('paths.' || j || '.steps'), copy -> ('paths.' || j || '.steps'), copy -> 'paths' -> j -> 'steps')
              )
            )
          ELSE step -> 'paths' -> j END
        );
      END LOOP;
      step := jsonb_set(step - 'paths.0.steps' - 'paths.1.steps' - 'paths.2.steps' - 'paths.3.steps' - 'paths.4.steps', '{paths}', paths);
    END IF;
    result := result || jsonb_build_array(step);
  END LOOP;
  RETURN result;
END;
$$;

UPDATE flow_versions SET steps = flow_steps_canonical(steps, NULL) WHERE steps::text LIKE '%"paths.%';

DROP FUNCTION flow_steps_canonical(jsonb, jsonb);
