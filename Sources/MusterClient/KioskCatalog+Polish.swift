extension KioskCatalog {
    static func polish(_ message: KioskMessage) -> String {
        switch message {
        case .title(let kiosk): "== Muster · kiosk \(kiosk) =="
        case .banner(let campaign, let kiosk): "== \(campaign) · rejestracja wejścia · kiosk \(kiosk) =="
        case .waitingForEvent: "Ten kiosk czeka, aż organizator wybierze wydarzenie."
        case .languageHint: languageHint
        case .languageChosen: "Język: polski."
        case .mainPrompt: "E-mail lub kod biletu (albo 'new', aby się zarejestrować): "
        case .found(let name): "Znaleziono: \(name)"
        case .confirmPrompt: "Czy to Ty? Zarejestrować wejście teraz? [t/N] "
        case .notCheckedIn: "Wejście nie zostało zarejestrowane."
        case .notFound:
            "Nie znaleziono: żaden bilet ani e-mail nie pasuje. Sprawdź pisownię lub wpisz 'new', aby się zarejestrować."
        case .seeStaff(let seconds):
            "Ponownie nie znaleziono. Prosimy zgłosić się do obsługi. Kolejna próba będzie możliwa za \(seconds) s."
        case .notValid(let name): "Zgłoś się do obsługi: \(name), ten bilet nie uprawnia do wejścia."
        case .alreadyIn(let name, let time): "Wejście już zarejestrowane: \(name), o \(time)."
        case .checkedIn(let time): "Wejście zarejestrowane o \(time)."
        case .welcome(let first): first.isEmpty ? "Witamy!" : "Witamy, \(first)!"
        case .welcomeWord: "WITAMY"
        case .ticketCode(let code): "Twój kod biletu to \(code). Zachowaj go, aby wejść ponownie."
        case .scanAtReEntry: "Zeskanuj ten kod przy ponownym wejściu:"
        case .notePrompt: "Zostaw jednowierszowy wpis w księdze gości (lub naciśnij Enter, aby pominąć): "
        case .noteSaved: "Dziękujemy, Twój wpis jest w księdze gości."
        case .noteNotSaved: "Wpis nie został zapisany."
        case .enjoy: "Udanego wydarzenia!"
        case .registrationStart: "Rejestracja na miejscu (zostaw imię puste, aby anulować)."
        case .firstNamePrompt: "Imię: "
        case .lastNamePrompt: "Nazwisko: "
        case .lastNameRequired: "Nazwisko (wymagane): "
        case .emailPrompt: "E-mail: "
        case .notAnEmail: "To nie wygląda na adres e-mail."
        case .companyPrompt: "Firma (opcjonalnie): "
        case .registrationCancelled: "Rejestracja anulowana."
        case .emailRegistered:
            "Ten e-mail jest już zarejestrowany. Czy to Twój? Zarejestrować wejście teraz? [t/N] "
        case .failed(let detail): "Zgłoś się do obsługi: coś poszło nie tak (\(detail))."
        case .refused(let detail): "Wejście nie zostało zarejestrowane: \(detail)"
        case .seeStaffDesk: "Wejście nie zostało zarejestrowane. Prosimy zgłosić się do obsługi."
        case .doorRefused(.notFound): polish(.notFound)
        case .doorRefused(.notLocked): polish(.waitingForEvent)
        case .doorRefused(.alreadyInside): "Wejście nie zostało zarejestrowane: ta osoba jest już w tej strefie."
        case .doorRefused(.outsideWindow): "Wejście nie zostało zarejestrowane: rejestracja jest teraz zamknięta."
        case .doorRefused(.zoneFull):
            "Wejście nie zostało zarejestrowane: ta strefa jest teraz pełna. Prosimy zaczekać lub zapytać obsługę."
        case .doorRefused(.entriesUsedUp):
            "Wejście nie zostało zarejestrowane: ten bilet nie uprawnia już do kolejnych wejść."
        case .doorRefused(.notAdmitted): "Zgłoś się do obsługi: ten bilet nie uprawnia do wejścia."
        case .doorRefused(.reEntryRefused):
            "Wejście nie zostało zarejestrowane: po wyjściu z tej strefy nie można do niej wrócić."
        case .badgePrinting: "Drukowanie identyfikatora…"
        case .badgePrinted: "Identyfikator jest gotowy: proszę odebrać go z drukarki."
        case .badgeNotPrinted: "Nie udało się wydrukować identyfikatora. Proszę podejść do stanowiska obsługi."
        case .badgeAlreadyPrinted:
            "Identyfikator został już dla Pana/Pani wydrukowany. Kolejny można otrzymać w stanowisku obsługi."
        }
    }
}
