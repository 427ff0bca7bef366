package sourceconfig

import (
	"encoding/json"
	"fmt"

	"github.com/urlnorm/urlnorm/normalize"
	"go.yaml.in/yaml/v3"
)

// ParseProfileYAML reads a profile from YAML (the same fields as JSON).
func ParseProfileYAML(name string, data []byte) (normalize.Profile, error) {
	js, err := YAMLToJSON(data)
	if err != nil {
		return normalize.Profile{}, &normalize.Error{Op: "load profile", Input: name, Kind: normalize.KindConfig, Err: err}
	}
	return normalize.ParseProfile(name, js)
}

// YAMLToJSON converts a YAML document to JSON so that one strict JSON
// decoder serves both formats.
func YAMLToJSON(data []byte) ([]byte, error) {
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil {
		return nil, err
	}
	v, err := jsonable(v)
	if err != nil {
		return nil, err
	}
	return json.Marshal(v)
}

func jsonable(v any) (any, error) {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			j, err := jsonable(e)
			if err != nil {
				return nil, err
			}
			t[k] = j
		}
		return t, nil
	case map[any]any:
		m := make(map[string]any, len(t))
		for k, e := range t {
			// JSON keys are strings: a scalar key ("404: …" in a gateway
			// config's status table) is written as text; only a key that
			// is itself a mapping or a list cannot be.
			var ks string
			switch k := k.(type) {
			case string:
				ks = k
			case nil:
				ks = "null"
			case int, int64, uint64, float64, bool:
				ks = fmt.Sprint(k)
			default:
				return nil, fmt.Errorf("YAML key %v is not a scalar", k)
			}
			j, err := jsonable(e)
			if err != nil {
				return nil, err
			}
			m[ks] = j
		}
		return m, nil
	case []any:
		for i, e := range t {
			j, err := jsonable(e)
			if err != nil {
				return nil, err
			}
			t[i] = j
		}
		return t, nil
	}
	return v, nil
}
