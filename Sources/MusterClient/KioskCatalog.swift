public import MusterControl

/// The kiosk screen's words in every language it speaks: one table with each ``KioskMessage``'s six
/// translations side by side, so adding a message fails to compile until every language has it, and
/// a translator reads a sentence beside the others.
///
/// Translations are written for a hallway sign: short, polite, formal address (Sie, vous, usted,
/// u, Pan/Pani avoided by impersonal Polish forms).
public enum KioskCatalog {
    public static func text(_ message: KioskMessage, in language: ScreenLanguage) -> String {
        translations(message)[language]
    }

    /// The same hint in every language, so each reader finds their own.
    static let languageHint =
        "Language · Sprache · Langue · Idioma · Taal · Język: en de fr es nl pl"

    /// The answers that mean yes in any of the languages, so a person's own word always works.
    static let yesWords: Set<String> = ["y", "yes", "j", "ja", "o", "oui", "s", "si", "sí", "t", "tak"]

    /// One message in each language, by ISO 639-1 code.
    struct Translations {
        let en, de, fr, es, nl, pl: String

        init(en: String, de: String, fr: String, es: String, nl: String, pl: String) {
            (self.en, self.de, self.fr, self.es, self.nl, self.pl) = (en, de, fr, es, nl, pl)
        }

        /// The same words for every language (the language hint).
        init(all text: String) {
            self.init(en: text, de: text, fr: text, es: text, nl: text, pl: text)
        }

        subscript(language: ScreenLanguage) -> String {
            switch language {
            case .english: en
            case .german: de
            case .french: fr
            case .spanish: es
            case .dutch: nl
            case .polish: pl
            }
        }
    }

    static func translations(_ message: KioskMessage) -> Translations {
        switch message {
        case .title(let kiosk):
            Translations(
                en: "== Muster · kiosk \(kiosk) ==",
                de: "== Muster · Kiosk \(kiosk) ==",
                fr: "== Muster · borne \(kiosk) ==",
                es: "== Muster · quiosco \(kiosk) ==",
                nl: "== Muster · kiosk \(kiosk) ==",
                pl: "== Muster · kiosk \(kiosk) =="
            )
        case .banner(let campaign, let kiosk):
            Translations(
                en: "== \(campaign) · check-in · kiosk \(kiosk) ==",
                de: "== \(campaign) · Check-in · Kiosk \(kiosk) ==",
                fr: "== \(campaign) · enregistrement · borne \(kiosk) ==",
                es: "== \(campaign) · registro de llegada · quiosco \(kiosk) ==",
                nl: "== \(campaign) · inchecken · kiosk \(kiosk) ==",
                pl: "== \(campaign) · rejestracja wejścia · kiosk \(kiosk) =="
            )
        case .workingAlone(let time, nil):
            Translations(
                en: "[staff] Working alone since \(time): no other kiosk heard.",
                de: "[Personal] Arbeitet allein seit \(time): kein anderer Kiosk erreichbar.",
                fr: "[personnel] Fonctionne seule depuis \(time) : aucune autre borne entendue.",
                es: "[personal] Funciona solo desde las \(time): ningún otro quiosco responde.",
                nl: "[personeel] Werkt alleen sinds \(time): geen andere kiosk gehoord.",
                pl: "[obsługa] Działa samodzielnie od \(time): brak łączności z innymi kioskami."
            )
        case .workingAlone(let time, let zone?):
            Translations(
                en: "[staff] Working alone since \(time): \(zone) unheard.",
                de: "[Personal] Arbeitet allein seit \(time): \(zone) nicht erreichbar.",
                fr: "[personnel] Fonctionne seule depuis \(time) : \(zone) non entendu.",
                es: "[personal] Funciona solo desde las \(time): \(zone) no responde.",
                nl: "[personeel] Werkt alleen sinds \(time): \(zone) niet gehoord.",
                pl: "[obsługa] Działa samodzielnie od \(time): brak łączności ze strefą \(zone)."
            )
        case .waitingForEvent:
            Translations(
                en: "This kiosk is waiting for the organizer to pick the event.",
                de: "Dieser Kiosk wartet darauf, dass der Veranstalter die Veranstaltung auswählt.",
                fr: "Cette borne attend que l’organisateur choisisse l’événement.",
                es: "Este quiosco está esperando a que la organización elija el evento.",
                nl: "Deze kiosk wacht tot de organisator het evenement kiest.",
                pl: "Ten kiosk czeka, aż organizator wybierze wydarzenie."
            )
        case .languageHint: Translations(all: languageHint)
        case .languageChosen:
            Translations(
                en: "Language: English.",
                de: "Sprache: Deutsch.",
                fr: "Langue : français.",
                es: "Idioma: español.",
                nl: "Taal: Nederlands.",
                pl: "Język: polski."
            )
        case .mainPrompt:
            Translations(
                en: "Email or ticket code (or 'new' to register): ",
                de: "E-Mail oder Ticketcode (oder 'new' zum Registrieren): ",
                fr: "E-mail ou code du billet (ou « new » pour vous inscrire) : ",
                es: "Correo electrónico o código de entrada (o 'new' para registrarse): ",
                nl: "E-mail of ticketcode (of 'new' om u te registreren): ",
                pl: "E-mail lub kod biletu (albo 'new', aby się zarejestrować): "
            )
        case .found(let name):
            Translations(
                en: "Found: \(name)",
                de: "Gefunden: \(name)",
                fr: "Trouvé : \(name)",
                es: "Se ha encontrado: \(name)",
                nl: "Gevonden: \(name)",
                pl: "Znaleziono: \(name)"
            )
        case .confirmPrompt:
            Translations(
                en: "Is this you? Check in now? [y/N] ",
                de: "Sind Sie das? Jetzt einchecken? [j/N] ",
                fr: "Est-ce bien vous ? Enregistrer votre arrivée maintenant ? [o/N] ",
                es: "¿Es usted? ¿Registrar su llegada ahora? [s/N] ",
                nl: "Bent u dit? Nu inchecken? [j/N] ",
                pl: "Czy to Ty? Zarejestrować wejście teraz? [t/N] "
            )
        case .notCheckedIn:
            Translations(
                en: "Not checked in.",
                de: "Nicht eingecheckt.",
                fr: "Arrivée non enregistrée.",
                es: "Llegada no registrada.",
                nl: "Niet ingecheckt.",
                pl: "Wejście nie zostało zarejestrowane."
            )
        case .notFound:
            Translations(
                en: "Not found: no ticket or email matches. Check the spelling, or type 'new' to register.",
                de:
                    "Nicht gefunden: Kein Ticket und keine E-Mail passt. Prüfen Sie die Schreibweise oder geben Sie 'new' ein, um sich zu registrieren.",
                fr:
                    "Introuvable : aucun billet ni e-mail ne correspond. Vérifiez l’orthographe, ou tapez « new » pour vous inscrire.",
                es:
                    "No encontrado: ninguna entrada ni correo coincide. Revise la ortografía o escriba 'new' para registrarse.",
                nl:
                    "Niet gevonden: geen ticket of e-mail komt overeen. Controleer de spelling, of typ 'new' om u te registreren.",
                pl:
                    "Nie znaleziono: żaden bilet ani e-mail nie pasuje. Sprawdź pisownię lub wpisz 'new', aby się zarejestrować."
            )
        case .seeStaff(let seconds):
            Translations(
                en: "Not found again. Please see the staff desk. The next try is possible in \(seconds) s.",
                de:
                    "Wieder nicht gefunden. Bitte wenden Sie sich an das Personal. Der nächste Versuch ist in \(seconds) s möglich.",
                fr:
                    "Toujours introuvable. Veuillez vous adresser à l’accueil. Nouvel essai possible dans \(seconds) s.",
                es:
                    "No encontrado de nuevo. Diríjase al personal, por favor. Podrá volver a intentarlo en \(seconds) s.",
                nl: "Opnieuw niet gevonden. Ga naar de balie. Een nieuwe poging kan over \(seconds) s.",
                pl:
                    "Ponownie nie znaleziono. Prosimy zgłosić się do obsługi. Kolejna próba będzie możliwa za \(seconds) s."
            )
        case .notValid(let name):
            Translations(
                en: "See staff: \(name), this ticket is not valid for check-in.",
                de: "Bitte an das Personal wenden: \(name), dieses Ticket ist für den Check-in nicht gültig.",
                fr: "Adressez-vous à l’accueil : \(name), ce billet n’est pas valable pour l’enregistrement.",
                es: "Diríjase al personal: \(name), esta entrada no es válida para el registro.",
                nl: "Ga naar de balie: \(name), dit ticket is niet geldig om in te checken.",
                pl: "Zgłoś się do obsługi: \(name), ten bilet nie uprawnia do wejścia."
            )
        case .alreadyIn(let name, let time):
            Translations(
                en: "Already checked in: \(name), at \(time).",
                de: "Bereits eingecheckt: \(name), um \(time).",
                fr: "Arrivée déjà enregistrée : \(name), à \(time).",
                es: "Llegada ya registrada: \(name), a las \(time).",
                nl: "Al ingecheckt: \(name), om \(time).",
                pl: "Wejście już zarejestrowane: \(name), o \(time)."
            )
        case .checkedIn(let time):
            Translations(
                en: "Checked in at \(time).",
                de: "Eingecheckt um \(time).",
                fr: "Arrivée enregistrée à \(time).",
                es: "Llegada registrada a las \(time).",
                nl: "Ingecheckt om \(time).",
                pl: "Wejście zarejestrowane o \(time)."
            )
        case .welcome(let first):
            Translations(
                en: first.isEmpty ? "Welcome!" : "Welcome, \(first)!",
                de: first.isEmpty ? "Willkommen!" : "Willkommen, \(first)!",
                fr: first.isEmpty ? "Bienvenue !" : "Bienvenue, \(first) !",
                es: first.isEmpty ? "¡Le damos la bienvenida!" : "¡Le damos la bienvenida, \(first)!",
                nl: first.isEmpty ? "Welkom!" : "Welkom, \(first)!",
                pl: first.isEmpty ? "Witamy!" : "Witamy, \(first)!"
            )
        case .welcomeWord:
            Translations(
                en: "WELCOME",
                de: "WILLKOMMEN",
                fr: "BIENVENUE",
                es: "BIENVENIDOS",
                nl: "WELKOM",
                pl: "WITAMY"
            )
        case .ticketCode(let code):
            Translations(
                en: "Your ticket code is \(code). Keep it for re-entry.",
                de: "Ihr Ticketcode lautet \(code). Bewahren Sie ihn für den Wiedereinlass auf.",
                fr: "Votre code de billet est \(code). Conservez-le pour entrer à nouveau.",
                es: "Su código de entrada es \(code). Guárdelo para volver a entrar.",
                nl: "Uw ticketcode is \(code). Bewaar hem om opnieuw binnen te komen.",
                pl: "Twój kod biletu to \(code). Zachowaj go, aby wejść ponownie."
            )
        case .scanAtReEntry:
            Translations(
                en: "Scan this code at re-entry:",
                de: "Scannen Sie diesen Code beim Wiedereinlass:",
                fr: "Scannez ce code pour entrer à nouveau :",
                es: "Escanee este código para volver a entrar:",
                nl: "Scan deze code om opnieuw binnen te komen:",
                pl: "Zeskanuj ten kod przy ponownym wejściu:"
            )
        case .notePrompt:
            Translations(
                en: "Leave a one-line note for the guestbook (or press Enter to skip): ",
                de: "Hinterlassen Sie eine Zeile im Gästebuch (oder Enter zum Überspringen): ",
                fr: "Laissez un mot d’une ligne dans le livre d’or (ou Entrée pour passer) : ",
                es: "Deje una nota de una línea en el libro de visitas (o pulse Intro para omitirla): ",
                nl: "Laat een regel achter in het gastenboek (of druk op Enter om over te slaan): ",
                pl: "Zostaw jednowierszowy wpis w księdze gości (lub naciśnij Enter, aby pominąć): "
            )
        case .noteSaved:
            Translations(
                en: "Thank you, your note is in the guestbook.",
                de: "Danke, Ihr Eintrag steht im Gästebuch.",
                fr: "Merci, votre mot est dans le livre d’or.",
                es: "Gracias, su nota está en el libro de visitas.",
                nl: "Dank u, uw bericht staat in het gastenboek.",
                pl: "Dziękujemy, Twój wpis jest w księdze gości."
            )
        case .noteNotSaved:
            Translations(
                en: "The note was not saved.",
                de: "Der Eintrag wurde nicht gespeichert.",
                fr: "Le mot n’a pas été enregistré.",
                es: "La nota no se ha guardado.",
                nl: "Het bericht is niet opgeslagen.",
                pl: "Wpis nie został zapisany."
            )
        case .enjoy:
            Translations(
                en: "Enjoy the event!",
                de: "Viel Freude bei der Veranstaltung!",
                fr: "Profitez bien de l’événement !",
                es: "¡Disfrute del evento!",
                nl: "Veel plezier op het evenement!",
                pl: "Udanego wydarzenia!"
            )
        case .registrationStart:
            Translations(
                en: "Walk-in registration (leave the first name empty to cancel).",
                de: "Registrierung vor Ort (Vorname leer lassen, um abzubrechen).",
                fr: "Inscription sur place (laissez le prénom vide pour annuler).",
                es: "Registro en el lugar (deje el nombre vacío para cancelar).",
                nl: "Registratie ter plaatse (laat de voornaam leeg om te annuleren).",
                pl: "Rejestracja na miejscu (zostaw imię puste, aby anulować)."
            )
        case .firstNamePrompt:
            Translations(
                en: "First name: ",
                de: "Vorname: ",
                fr: "Prénom : ",
                es: "Nombre: ",
                nl: "Voornaam: ",
                pl: "Imię: "
            )
        case .lastNamePrompt:
            Translations(
                en: "Last name: ",
                de: "Nachname: ",
                fr: "Nom : ",
                es: "Apellidos: ",
                nl: "Achternaam: ",
                pl: "Nazwisko: "
            )
        case .lastNameRequired:
            Translations(
                en: "Last name (required): ",
                de: "Nachname (erforderlich): ",
                fr: "Nom (obligatoire) : ",
                es: "Apellidos (obligatorio): ",
                nl: "Achternaam (verplicht): ",
                pl: "Nazwisko (wymagane): "
            )
        case .emailPrompt:
            Translations(
                en: "Email: ",
                de: "E-Mail: ",
                fr: "E-mail : ",
                es: "Correo electrónico: ",
                nl: "E-mail: ",
                pl: "E-mail: "
            )
        case .notAnEmail:
            Translations(
                en: "That does not look like an email address.",
                de: "Das sieht nicht wie eine E-Mail-Adresse aus.",
                fr: "Cela ne ressemble pas à une adresse e-mail.",
                es: "Eso no parece una dirección de correo electrónico.",
                nl: "Dat lijkt geen e-mailadres.",
                pl: "To nie wygląda na adres e-mail."
            )
        case .companyPrompt:
            Translations(
                en: "Company (optional): ",
                de: "Firma (optional): ",
                fr: "Entreprise (facultatif) : ",
                es: "Empresa (opcional): ",
                nl: "Bedrijf (optioneel): ",
                pl: "Firma (opcjonalnie): "
            )
        case .registrationCancelled:
            Translations(
                en: "Registration cancelled.",
                de: "Registrierung abgebrochen.",
                fr: "Inscription annulée.",
                es: "Registro cancelado.",
                nl: "Registratie geannuleerd.",
                pl: "Rejestracja anulowana."
            )
        case .emailRegistered:
            Translations(
                en: "This email is already registered. Is it yours? Check in now? [y/N] ",
                de: "Diese E-Mail ist bereits registriert. Ist es Ihre? Jetzt einchecken? [j/N] ",
                fr: "Cet e-mail est déjà inscrit. Est-ce le vôtre ? Enregistrer votre arrivée maintenant ? [o/N] ",
                es: "Este correo ya está registrado. ¿Es el suyo? ¿Registrar su llegada ahora? [s/N] ",
                nl: "Dit e-mailadres is al geregistreerd. Is het van u? Nu inchecken? [j/N] ",
                pl: "Ten e-mail jest już zarejestrowany. Czy to Twój? Zarejestrować wejście teraz? [t/N] "
            )
        case .failed(let detail):
            Translations(
                en: "See staff: something went wrong (\(detail)). Please see the staff desk.",
                de: "Bitte an das Personal wenden: Etwas ist schiefgelaufen (\(detail)).",
                fr: "Adressez-vous à l’accueil : une erreur s’est produite (\(detail)).",
                es: "Diríjase al personal: algo ha fallado (\(detail)).",
                nl: "Ga naar de balie: er is iets misgegaan (\(detail)).",
                pl: "Zgłoś się do obsługi: coś poszło nie tak (\(detail))."
            )
        case .refused(let detail):
            Translations(
                en: "Not checked in: \(detail)",
                de: "Nicht eingecheckt: \(detail)",
                fr: "Arrivée non enregistrée : \(detail)",
                es: "Llegada no registrada: \(detail)",
                nl: "Niet ingecheckt: \(detail)",
                pl: "Wejście nie zostało zarejestrowane: \(detail)"
            )
        case .seeStaffDesk:
            Translations(
                en: "See staff: not checked in. Please see the staff desk.",
                de: "Nicht eingecheckt. Bitte wenden Sie sich an das Personal.",
                fr: "Arrivée non enregistrée. Veuillez vous adresser à l’accueil.",
                es: "Llegada no registrada. Diríjase al personal, por favor.",
                nl: "Niet ingecheckt. Ga naar de balie.",
                pl: "Wejście nie zostało zarejestrowane. Prosimy zgłosić się do obsługi."
            )
        case .doorRefused(.notFound): translations(.notFound)
        case .doorRefused(.notLocked): translations(.waitingForEvent)
        case .doorRefused(.alreadyInside):
            Translations(
                en: "Not checked in: you are already inside this area.",
                de: "Nicht eingecheckt: Sie sind bereits in diesem Bereich.",
                fr: "Arrivée non enregistrée : vous êtes déjà dans cet espace.",
                es: "Llegada no registrada: ya está dentro de esta zona.",
                nl: "Niet ingecheckt: u bent al in deze ruimte.",
                pl: "Wejście nie zostało zarejestrowane: ta osoba jest już w tej strefie."
            )
        case .doorRefused(.outsideWindow):
            Translations(
                en: "Not checked in: check-in is not open at this time.",
                de: "Nicht eingecheckt: Der Check-in ist zu dieser Zeit nicht geöffnet.",
                fr: "Arrivée non enregistrée : l’enregistrement n’est pas ouvert à cette heure.",
                es: "Llegada no registrada: el registro no está abierto en este momento.",
                nl: "Niet ingecheckt: inchecken is op dit moment niet mogelijk.",
                pl: "Wejście nie zostało zarejestrowane: rejestracja jest teraz zamknięta."
            )
        case .doorRefused(.zoneFull):
            Translations(
                en: "Not checked in: this area is full right now. Please wait or ask the staff.",
                de: "Nicht eingecheckt: Dieser Bereich ist gerade voll. Bitte warten Sie oder fragen Sie das Personal.",
                fr:
                    "Arrivée non enregistrée : cet espace est complet pour le moment. Veuillez patienter ou demander au personnel.",
                es: "Llegada no registrada: esta zona está completa en este momento. Espere o pregunte al personal.",
                nl: "Niet ingecheckt: deze ruimte is op dit moment vol. Wacht even of vraag het personeel.",
                pl:
                    "Wejście nie zostało zarejestrowane: ta strefa jest teraz pełna. Prosimy zaczekać lub zapytać obsługę."
            )
        case .doorRefused(.entriesUsedUp):
            Translations(
                en: "Not checked in: this ticket has no entries left.",
                de: "Nicht eingecheckt: Mit diesem Ticket ist kein weiterer Eintritt möglich.",
                fr: "Arrivée non enregistrée : ce billet ne donne plus droit à aucune entrée.",
                es: "Llegada no registrada: esta entrada ya no permite más accesos.",
                nl: "Niet ingecheckt: met dit ticket kunt u niet meer naar binnen.",
                pl: "Wejście nie zostało zarejestrowane: ten bilet nie uprawnia już do kolejnych wejść."
            )
        case .doorRefused(.notAdmitted):
            Translations(
                en: "See staff: this ticket is not valid for check-in.",
                de: "Bitte wenden Sie sich an das Personal: Dieses Ticket ist für den Check-in nicht gültig.",
                fr: "Adressez-vous à l’accueil : ce billet n’est pas valable pour l’enregistrement.",
                es: "Diríjase al personal: esta entrada no es válida para el registro.",
                nl: "Ga naar de balie: dit ticket is niet geldig om in te checken.",
                pl: "Zgłoś się do obsługi: ten bilet nie uprawnia do wejścia."
            )
        case .doorRefused(.reEntryRefused):
            Translations(
                en: "Not checked in: re-entry is not allowed here once you have left.",
                de: "Nicht eingecheckt: Wer diesen Bereich verlassen hat, kann ihn nicht erneut betreten.",
                fr: "Arrivée non enregistrée : une fois sorti de cet espace, on ne peut pas y revenir.",
                es: "Llegada no registrada: no se permite volver a entrar en esta zona después de salir.",
                nl: "Niet ingecheckt: wie deze ruimte heeft verlaten, mag er niet opnieuw in.",
                pl: "Wejście nie zostało zarejestrowane: po wyjściu z tej strefy nie można do niej wrócić."
            )
        case .doorRefused(.replaced):
            // Never where or when: that would tell whoever holds the old badge where its owner went.
            Translations(
                en: "See staff: this badge has been replaced by a new one.",
                de: "Bitte wenden Sie sich an das Personal: Dieses Namensschild wurde durch ein neues ersetzt.",
                fr: "Adressez-vous à l’accueil : ce badge a été remplacé par un nouveau.",
                es: "Diríjase al personal: esta acreditación ha sido sustituida por una nueva.",
                nl: "Ga naar de balie: deze badge is vervangen door een nieuwe.",
                pl: "Zgłoś się do obsługi: ten identyfikator został zastąpiony nowym."
            )
        case .doorRefused(.typeNotAdmitted):
            Translations(
                en: "Not checked in: this ticket does not admit to this area. Please see the staff desk.",
                de:
                    "Nicht eingecheckt: Dieses Ticket gilt nicht für diesen Bereich. Bitte wenden Sie sich an das Personal.",
                fr:
                    "Arrivée non enregistrée : ce billet ne donne pas accès à cet espace. Veuillez vous adresser à l’accueil.",
                es: "Llegada no registrada: esta entrada no da acceso a esta zona. Diríjase al personal, por favor.",
                nl: "Niet ingecheckt: dit ticket geeft geen toegang tot deze ruimte. Ga naar de balie.",
                pl:
                    "Wejście nie zostało zarejestrowane: ten bilet nie uprawnia do wejścia do tej strefy. Prosimy zgłosić się do obsługi."
            )
        case .doorRefused(.noSessionNow), .betweenSessions:
            Translations(
                en: "No session is open in this room now.",
                de: "In diesem Raum findet gerade keine Sitzung statt.",
                fr: "Aucune session n’est ouverte dans cette salle pour le moment.",
                es: "No hay ninguna sesión abierta en esta sala ahora.",
                nl: "Er is nu geen sessie open in deze zaal.",
                pl: "W tej sali nie trwa teraz żadna sesja."
            )
        case .doorRefused(.notRegistered):
            Translations(
                en: "Not checked in: this session is for registered attendees only. Please see the staff desk.",
                de:
                    "Nicht eingecheckt: Diese Sitzung ist nur für angemeldete Teilnehmende. Bitte wenden Sie sich an das Personal.",
                fr:
                    "Arrivée non enregistrée : cette session est réservée aux inscrits. Veuillez vous adresser à l’accueil.",
                es:
                    "Llegada no registrada: esta sesión es solo para personas inscritas. Diríjase al personal, por favor.",
                nl: "Niet ingecheckt: deze sessie is alleen voor aangemelde deelnemers. Ga naar de balie.",
                pl:
                    "Wejście nie zostało zarejestrowane: ta sesja jest tylko dla zapisanych uczestników. Prosimy zgłosić się do obsługi."
            )
        case .doorRefused(.wrongZone):
            Translations(
                en: "Not checked in: this code is for a session in another room.",
                de: "Nicht eingecheckt: Dieser Code gilt für eine Sitzung in einem anderen Raum.",
                fr: "Arrivée non enregistrée : ce code correspond à une session dans une autre salle.",
                es: "Llegada no registrada: este código es de una sesión en otra sala.",
                nl: "Niet ingecheckt: deze code hoort bij een sessie in een andere zaal.",
                pl: "Wejście nie zostało zarejestrowane: ten kod dotyczy sesji w innej sali."
            )
        case .doorRefused(.spotClosed):
            Translations(
                en: "Not checked in: check-in for this session is closed.",
                de: "Nicht eingecheckt: Der Check-in für diese Sitzung ist geschlossen.",
                fr: "Arrivée non enregistrée : l’enregistrement pour cette session est fermé.",
                es: "Llegada no registrada: el registro de esta sesión está cerrado.",
                nl: "Niet ingecheckt: inchecken voor deze sessie is gesloten.",
                pl: "Wejście nie zostało zarejestrowane: rejestracja na tę sesję jest zamknięta."
            )
        case .doorRefused(.wrongCode):
            Translations(
                en: "Not checked in: no open session has this code.",
                de: "Nicht eingecheckt: Keine offene Sitzung hat diesen Code.",
                fr: "Arrivée non enregistrée : aucune session ouverte n’a ce code.",
                es: "Llegada no registrada: ninguna sesión abierta tiene este código.",
                nl: "Niet ingecheckt: geen open sessie heeft deze code.",
                pl: "Wejście nie zostało zarejestrowane: żadna otwarta sesja nie ma tego kodu."
            )
        case .doorRefused(.sessionFull):
            Translations(
                en: "Not checked in: this session is full.",
                de: "Nicht eingecheckt: Diese Sitzung ist voll.",
                fr: "Arrivée non enregistrée : cette session est complète.",
                es: "Llegada no registrada: esta sesión está completa.",
                nl: "Niet ingecheckt: deze sessie is vol.",
                pl: "Wejście nie zostało zarejestrowane: ta sesja jest pełna."
            )
        case .sessionOpen(let name, let until):
            Translations(
                en: "Checking in to: \(name), until \(until)",
                de: "Check-in für: \(name), bis \(until)",
                fr: "Enregistrement pour : \(name), jusqu’à \(until)",
                es: "Registro para: \(name), hasta las \(until)",
                nl: "Inchecken voor: \(name), tot \(until)",
                pl: "Rejestracja na: \(name), do \(until)"
            )
        case .spotCodeTaken:
            Translations(
                en: "Session code taken. Now your email or ticket code: ",
                de: "Sitzungscode erkannt. Jetzt Ihre E-Mail oder Ihr Ticketcode: ",
                fr: "Code de session reconnu. Maintenant votre e-mail ou code de billet : ",
                es: "Código de sesión aceptado. Ahora su correo o código de entrada: ",
                nl: "Sessiecode herkend. Nu uw e-mail of ticketcode: ",
                pl: "Kod sesji przyjęty. Teraz e-mail lub kod biletu: "
            )
        case .attended(let session, let first):
            Translations(
                en: first.isEmpty ? "Checked in to \(session)." : "Checked in to \(session). Welcome, \(first)!",
                de: first.isEmpty ? "Eingecheckt: \(session)." : "Eingecheckt: \(session). Willkommen, \(first)!",
                fr: first.isEmpty
                    ? "Arrivée enregistrée : \(session)." : "Arrivée enregistrée : \(session). Bienvenue, \(first) !",
                es: first.isEmpty
                    ? "Llegada registrada: \(session)." : "Llegada registrada: \(session). ¡Bienvenida/o, \(first)!",
                nl: first.isEmpty ? "Ingecheckt: \(session)." : "Ingecheckt: \(session). Welkom, \(first)!",
                pl: first.isEmpty
                    ? "Zarejestrowano wejście: \(session)." : "Zarejestrowano wejście: \(session). Witamy, \(first)!"
            )
        case .leftSession(let session):
            Translations(
                en: "Checked out of \(session). Goodbye!",
                de: "Ausgecheckt: \(session). Auf Wiedersehen!",
                fr: "Départ enregistré : \(session). Au revoir !",
                es: "Salida registrada: \(session). ¡Hasta pronto!",
                nl: "Uitgecheckt: \(session). Tot ziens!",
                pl: "Zarejestrowano wyjście: \(session). Do widzenia!"
            )
        case .doorRefused(.notValidNow):
            Translations(
                en: "Not checked in: this ticket is not valid at this time.",
                de: "Nicht eingecheckt: Dieses Ticket ist zu dieser Zeit nicht gültig.",
                fr: "Arrivée non enregistrée : ce billet n’est pas valable à cette heure.",
                es: "Llegada no registrada: esta entrada no es válida en este momento.",
                nl: "Niet ingecheckt: dit ticket is op dit moment niet geldig.",
                pl: "Wejście nie zostało zarejestrowane: ten bilet nie jest teraz ważny."
            )
        case .doorRefused(.alreadyRedeemed):
            // Never where or when on the screen: that is staff's (`muster redeem`).
            Translations(
                en: "Not handed out: this has already been collected.",
                de: "Nicht ausgegeben: Dies wurde bereits abgeholt.",
                fr: "Non remis : cet article a déjà été retiré.",
                es: "No entregado: ya se ha recogido.",
                nl: "Niet uitgereikt: dit is al opgehaald.",
                pl: "Nie wydano: to zostało już odebrane."
            )
        case .doorRefused(.addonNotBought):
            Translations(
                en: "Not handed out: this ticket does not include it. Please see the staff desk.",
                de: "Nicht ausgegeben: Dieses Ticket enthält es nicht. Bitte wenden Sie sich an das Personal.",
                fr: "Non remis : ce billet ne l’inclut pas. Veuillez vous adresser à l’accueil.",
                es: "No entregado: esta entrada no lo incluye. Diríjase al personal, por favor.",
                nl: "Niet uitgereikt: dit ticket bevat het niet. Ga naar de balie.",
                pl: "Nie wydano: ten bilet tego nie obejmuje. Prosimy zgłosić się do obsługi."
            )
        case .doorRefused(.wrongDesk):
            Translations(
                en: "Not handed out here: please go to the desk that hands it out.",
                de: "Hier nicht ausgegeben: Bitte gehen Sie zum zuständigen Schalter.",
                fr: "Non remis ici : veuillez vous rendre au comptoir qui le remet.",
                es: "No se entrega aquí: acuda al mostrador que lo entrega, por favor.",
                nl: "Hier niet uitgereikt: ga naar de balie die het uitreikt.",
                pl: "Nie wydajemy tego tutaj: prosimy udać się do właściwego stanowiska."
            )
        case .doorRefused(.needsStaff):
            // Never the attention text: that is for staff, and the next person reads this screen.
            Translations(
                en: "Please see a member of staff.",
                de: "Bitte wenden Sie sich an das Personal.",
                fr: "Veuillez vous adresser à un membre du personnel.",
                es: "Diríjase a un miembro del personal, por favor.",
                nl: "Ga naar een medewerker.",
                pl: "Prosimy zgłosić się do obsługi."
            )
        case .partyPrompt(let count):
            Translations(
                en: "Your order has \(count) more ticket(s). Check them in now too? [y/N] ",
                de: "Zu Ihrer Bestellung gehören noch \(count) Ticket(s). Jetzt auch einchecken? [j/N] ",
                fr: "Votre commande compte encore \(count) billet(s). Les enregistrer aussi ? [o/N] ",
                es: "Su pedido tiene \(count) entrada(s) más. ¿Registrarlas también ahora? [s/N] ",
                nl: "Uw bestelling heeft nog \(count) ticket(s). Die nu ook inchecken? [j/N] ",
                pl: "Zamówienie obejmuje jeszcze \(count) bilet(y). Zarejestrować je teraz? [t/N] "
            )
        case .partyCheckedIn(let count):
            Translations(
                en: "Checked in with you: \(count) more.",
                de: "Mit Ihnen eingecheckt: \(count) weitere.",
                fr: "Enregistrés avec vous : \(count) de plus.",
                es: "Registrados con usted: \(count) más.",
                nl: "Met u ingecheckt: nog \(count).",
                pl: "Zarejestrowano razem z Tobą: jeszcze \(count)."
            )
        case .partySeeStaff(let count):
            Translations(
                en: "\(count) of your order could not be checked in here. Please see the staff desk.",
                de:
                    "\(count) Ihrer Bestellung konnten hier nicht eingecheckt werden. Bitte wenden Sie sich an das Personal.",
                fr:
                    "\(count) billet(s) de votre commande n’ont pas pu être enregistrés ici. Veuillez vous adresser à l’accueil.",
                es: "\(count) de su pedido no se han podido registrar aquí. Diríjase al personal, por favor.",
                nl: "\(count) van uw bestelling konden hier niet inchecken. Ga naar de balie.",
                pl: "\(count) z zamówienia nie udało się tu zarejestrować. Prosimy zgłosić się do obsługi."
            )
        case .partyNotCheckedIn:
            Translations(
                en: "The rest of your order was not checked in. Please see the staff desk.",
                de: "Der Rest Ihrer Bestellung wurde nicht eingecheckt. Bitte wenden Sie sich an das Personal.",
                fr: "Le reste de votre commande n’a pas été enregistré. Veuillez vous adresser à l’accueil.",
                es: "El resto de su pedido no se ha registrado. Diríjase al personal, por favor.",
                nl: "De rest van uw bestelling is niet ingecheckt. Ga naar de balie.",
                pl: "Pozostałe bilety z zamówienia nie zostały zarejestrowane. Prosimy zgłosić się do obsługi."
            )
        case .redeemDesk(let addon):
            Translations(
                en: "Collect: \(addon). Type or scan your email or ticket code.",
                de: "Abholung: \(addon). Geben Sie Ihre E-Mail-Adresse oder Ticketnummer ein oder scannen Sie sie.",
                fr: "Retrait : \(addon). Saisissez ou scannez votre e-mail ou votre code de billet.",
                es: "Recogida: \(addon). Escriba o escanee su correo o el código de su entrada.",
                nl: "Ophalen: \(addon). Typ of scan uw e-mailadres of ticketcode.",
                pl: "Odbiór: \(addon). Wpisz lub zeskanuj swój e-mail albo kod biletu."
            )
        case .handedOut(let addon, let firstName):
            Translations(
                en: "Handed out: \(addon). Enjoy, \(firstName)!",
                de: "Ausgegeben: \(addon). Viel Freude, \(firstName)!",
                fr: "Remis : \(addon). Profitez-en, \(firstName) !",
                es: "Entregado: \(addon). ¡Que lo disfrute, \(firstName)!",
                nl: "Uitgereikt: \(addon). Veel plezier, \(firstName)!",
                pl: "Wydano: \(addon). Miłego dnia, \(firstName)!"
            )
        case .badgePrinting:
            Translations(
                en: "Printing your badge…",
                de: "Ihr Namensschild wird gedruckt …",
                fr: "Impression de votre badge…",
                es: "Imprimiendo su acreditación…",
                nl: "Uw badge wordt afgedrukt…",
                pl: "Drukowanie identyfikatora…"
            )
        case .badgePrinted:
            Translations(
                en: "Your badge is ready: please take it from the printer.",
                de: "Ihr Namensschild ist fertig: Bitte nehmen Sie es aus dem Drucker.",
                fr: "Votre badge est prêt : veuillez le prendre dans l’imprimante.",
                es: "Su acreditación está lista: recójala de la impresora.",
                nl: "Uw badge is klaar: neem hem uit de printer.",
                pl: "Identyfikator jest gotowy: proszę odebrać go z drukarki."
            )
        case .badgePrintedAt(let place):
            Translations(
                en: "Your badge is printing at \(place): please collect it there.",
                de: "Ihr Namensschild wird bei \(place) gedruckt: Bitte holen Sie es dort ab.",
                fr: "Votre badge est imprimé à \(place) : veuillez le récupérer là-bas.",
                es: "Su acreditación se está imprimiendo en \(place): recójala allí.",
                nl: "Uw badge wordt afgedrukt bij \(place): haal hem daar op.",
                pl: "Identyfikator jest drukowany tutaj: \(place). Proszę odebrać go tam."
            )
        case .badgeNotPrinted:
            Translations(
                en: "Your badge could not be printed. Please see the staff desk.",
                de: "Ihr Namensschild konnte nicht gedruckt werden. Bitte wenden Sie sich an den Empfang.",
                fr: "Votre badge n’a pas pu être imprimé. Veuillez vous adresser à l’accueil.",
                es: "No se ha podido imprimir su acreditación. Diríjase al mostrador del personal.",
                nl: "Uw badge kon niet worden afgedrukt. Ga naar de balie.",
                pl: "Nie udało się wydrukować identyfikatora. Proszę podejść do stanowiska obsługi."
            )
        case .badgeAlreadyPrinted:
            Translations(
                en: "A badge was already printed for you. Please see the staff desk for another.",
                de: "Für Sie wurde bereits ein Namensschild gedruckt. Ein weiteres erhalten Sie am Empfang.",
                fr: "Un badge a déjà été imprimé pour vous. Adressez-vous à l’accueil pour en obtenir un autre.",
                es: "Ya se imprimió una acreditación para usted. Pida otra en el mostrador del personal.",
                nl: "Er is al een badge voor u afgedrukt. Vraag aan de balie om een nieuwe.",
                pl: "Identyfikator został już dla Pana/Pani wydrukowany. Kolejny można otrzymać w stanowisku obsługi."
            )

        }
    }
}
