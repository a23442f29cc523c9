package api

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	"golang.org/x/oauth2"

	"github.com/towow/towow/identity"
)

// Signing in on the console. Plain handlers beside the operations:
//
//   - GET  /auth/me: who the request comes from, and how to sign in;
//   - POST /auth/local {"name": …}: local mode (no identity provider): the
//     server signs a session for the name;
//   - GET  /auth/login → the provider → GET /auth/callback: the
//     authorization code flow with PKCE against the OpenID Connect issuer;
//     the provider's ID token is verified, then the server signs a session;
//   - POST /auth/logout: ends the session.
//
// The session is the cookie SessionCookieName: HttpOnly (the page's
// scripts cannot read it), SameSite=Lax, Secure over TLS. A write carrying
// it must come from the console's own origin (authenticate checks).

// SessionCookieName is the console's session cookie.
const SessionCookieName = "towow_session"

// loginCookie holds a sign-in's state and PKCE verifier until the
// provider redirects back.
const loginCookie = "towow_login"

// CodeBadName is a local-mode sign-in name that cannot be a user.
const CodeBadName = "TOWOW_AUTH_004"

// Me is who a request comes from, and how to sign in.
type Me struct {
	SignedIn bool   `json:"signed_in"`
	Kind     string `json:"kind,omitempty" doc:"user, agent or admin"`
	UserID   string `json:"user_id,omitempty"`
	Name     string `json:"name,omitempty"`
	// Mode is local (sign in with a name), oidc (sign in with the
	// identity provider) or none (no one signs in on this server).
	Mode string `json:"mode"`
	// Login is where the console sends a person to sign in.
	Login string `json:"login,omitempty"`
}

func (s *Server) registerSignIn(mux *http.ServeMux, g guard, csrf *http.CrossOriginProtection) {
	mux.HandleFunc("GET /auth/me", func(w http.ResponseWriter, r *http.Request) {
		p := principalOf(r.Context())
		me := Me{SignedIn: !p.Anonymous(), Kind: string(p.Kind), UserID: p.ID, Name: p.Name, Mode: "none"}
		switch {
		case g.people == nil:
		case g.people.Local():
			me.Mode, me.Login = "local", "/auth/local"
		default:
			me.Mode = "oidc"
			if g.people.OIDC().ClientID != "" {
				me.Login = "/auth/login"
			}
		}
		w.Header().Set("Cache-Control", "no-store")
		writeJSON(w, http.StatusOK, me)
	})
	mux.Handle("POST /auth/logout", csrf.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		setCookie(w, r, SessionCookieName, "", -1)
		w.WriteHeader(http.StatusNoContent)
	})))
	if g.people == nil {
		return
	}
	if g.people.Local() {
		mux.Handle("POST /auth/local", csrf.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			var in struct {
				Name string `json:"name"`
			}
			body, _ := io.ReadAll(io.LimitReader(r.Body, 4<<10))
			if err := json.Unmarshal(body, &in); err != nil {
				writeProblem(w, newProblem(http.StatusBadRequest, CodeBadRequest, `send {"name": "<your name>"}`))
				return
			}
			in.Name = strings.TrimSpace(in.Name)
			if why := identity.CheckLocalName(in.Name); why != "" {
				writeProblem(w, newProblem(http.StatusUnprocessableEntity, CodeBadName, why))
				return
			}
			if wait := g.limits.signIn(clientAddress(r)); wait > 0 {
				secs := retryAfter(wait)
				w.Header().Set("Retry-After", secs)
				writeProblem(w, newProblem(http.StatusTooManyRequests, CodeTooManyRequests,
					fmt.Sprintf("more than %d sign-ins an hour from your address; retry in %s s", signInsPerHour, secs)))
				return
			}
			s.startSession(w, r, identity.User(in.Name, in.Name))
		})))
		return
	}
	mux.HandleFunc("GET /auth/login", func(w http.ResponseWriter, r *http.Request) {
		conf := g.people.LoginConfig(callbackURL(r))
		if conf == nil {
			writeProblem(w, newProblem(http.StatusNotFound, CodeNotFound, "the console has no client id (TOWOW_OIDC_CLIENT_ID): sign in with a bearer token"))
			return
		}
		state, verifier := randomToken(), oauth2.GenerateVerifier()
		setCookie(w, r, loginCookie, state+"."+verifier, 600)
		http.Redirect(w, r, conf.AuthCodeURL(state, oauth2.S256ChallengeOption(verifier)), http.StatusFound)
	})
	mux.HandleFunc("GET /auth/callback", func(w http.ResponseWriter, r *http.Request) {
		conf := g.people.LoginConfig(callbackURL(r))
		c, err := r.Cookie(loginCookie)
		state, verifier, _ := strings.Cut(valueOr(c, err), ".")
		switch {
		case conf == nil:
			writeProblem(w, newProblem(http.StatusNotFound, CodeNotFound, "the console has no client id"))
			return
		case r.URL.Query().Get("error") != "":
			writeProblem(w, newProblem(http.StatusUnauthorized, CodeUnauthorized, "the identity provider refused the sign-in: "+r.URL.Query().Get("error")))
			return
		case state == "" || r.URL.Query().Get("state") != state:
			writeProblem(w, newProblem(http.StatusBadRequest, CodeUnauthorized, "this sign-in was not started here, or took too long: sign in again"))
			return
		}
		setCookie(w, r, loginCookie, "", -1)
		tok, err := conf.Exchange(r.Context(), r.URL.Query().Get("code"), oauth2.VerifierOption(verifier))
		if err != nil {
			writeProblem(w, newProblem(http.StatusUnauthorized, CodeUnauthorized, "the identity provider did not confirm the sign-in: sign in again"))
			return
		}
		raw, _ := tok.Extra("id_token").(string)
		p, err := g.people.VerifyLogin(r.Context(), raw)
		if err != nil {
			writeProblem(w, newProblem(http.StatusUnauthorized, CodeUnauthorized, "the identity provider's token is not valid: "+err.Error()))
			return
		}
		if strings.HasPrefix(p.ID, p.Name+"@") { // the token named no one but its subject: ask the provider
			if name := g.people.NameFromUserInfo(r.Context(), tok); name != "" {
				p.Name = name
			}
		}
		session, err := g.people.MintSession(p)
		if err != nil {
			writeProblem(w, newProblem(http.StatusInternalServerError, CodeInternal, "internal error"))
			return
		}
		setCookie(w, r, SessionCookieName, session, int(identity.SessionTTL.Seconds()))
		http.Redirect(w, r, "/", http.StatusFound)
	})
}

// startSession signs a session for p and sets its cookie.
func (s *Server) startSession(w http.ResponseWriter, r *http.Request, p identity.Principal) {
	session, err := s.People.MintSession(p)
	if err != nil {
		writeProblem(w, newProblem(http.StatusInternalServerError, CodeInternal, "internal error"))
		return
	}
	setCookie(w, r, SessionCookieName, session, int(identity.SessionTTL.Seconds()))
	writeJSON(w, http.StatusOK, Me{SignedIn: true, Kind: string(p.Kind), UserID: p.ID, Name: p.Name, Mode: "local", Login: "/auth/local"})
}

// setCookie sets (maxAge > 0) or clears (maxAge < 0) a cookie of the
// console's: HttpOnly, SameSite=Lax (the provider's redirect back is a
// top-level navigation from another site), Secure over TLS.
func setCookie(w http.ResponseWriter, r *http.Request, name, value string, maxAge int) {
	http.SetCookie(w, &http.Cookie{Name: name, Value: value, Path: "/", MaxAge: maxAge, HttpOnly: true,
		SameSite: http.SameSiteLaxMode, Secure: isHTTPS(r)})
}

// callbackURL is where the provider sends the browser back: this
// server's /auth/callback, as the browser reached it.
func callbackURL(r *http.Request) string {
	return baseURL(r) + "/auth/callback"
}

func valueOr(c *http.Cookie, err error) string {
	if err != nil {
		return ""
	}
	return c.Value
}

func randomToken() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
